// Nothing typed is lost: the hand form's values are kept on this device (per game, form and hand
// number) as they are typed, and put back, with a notice, after a reload, a locked phone or a
// lost connection. A Save with no network is stopped with a message, keeping everything. A draft
// that says no more than the form already shows (the hand was saved) is dropped.
(function () {
  "use strict";
  var form = document.querySelector("form[data-draft]");
  if (!form || !window.localStorage) { return; }
  var number = form.querySelector("input[name=number]").value;
  var key = "scorekeeper draft " + location.pathname + " " + number;
  var notice = document.getElementById("draft-notice");

  function typed() {  // the fields the scorer fills in: not the hidden ones, not the buttons
    return Array.prototype.filter.call(form.elements, function (field) {
      return field.name && field.type !== "hidden" && field.type !== "submit";
    });
  }

  function kept() {
    var values = {};
    typed().forEach(function (field) {
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked) { values[field.name] = field.value; }
      } else {
        values[field.name] = field.value;
      }
    });
    return JSON.stringify(values);
  }

  function put(values) {
    typed().forEach(function (field) {
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = values[field.name] === field.value;
      } else if (field.name in values) {
        field.value = values[field.name];
      }
    });
    form.dispatchEvent(new Event("input"));  // the tally and the moon choice follow
  }

  function forgetOlderHands() {  // drafts of this form for hands already recorded
    for (var index = localStorage.length - 1; index >= 0; index -= 1) {
      var other = localStorage.key(index);
      var prefix = "scorekeeper draft " + location.pathname + " ";
      if (other && other.indexOf(prefix) === 0 && Number(other.slice(prefix.length)) < Number(number)) {
        localStorage.removeItem(other);
      }
    }
  }

  try {
    forgetOlderHands();
    var draft = localStorage.getItem(key);
    var refused = document.getElementById("error-summary") || form.querySelector(".conflict");
    if (draft && draft !== kept() && !refused) {  // a page the server refilled keeps what it shows
      put(JSON.parse(draft));
      notice.hidden = false;
    } else if (draft === kept()) {
      localStorage.removeItem(key);
    }
  } catch (error) { /* storage full or refused: the form still works */ }

  function keep() {
    try { localStorage.setItem(key, kept()); } catch (error) { /* nothing to do */ }
  }
  form.addEventListener("input", keep);
  form.addEventListener("change", keep);
  form.addEventListener("submit", function (event) {
    keep();
    if (navigator.onLine === false) {
      event.preventDefault();
      var offline = document.getElementById("draft-offline");
      offline.hidden = false;
      offline.focus();
    }
  });
}());
