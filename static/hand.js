// Record-a-hand form: live tally, "Rest" without a round trip, and what was typed kept on this
// device (below). The form works without this script. Whether someone shot the moon is the
// server's to say (R15): it shows the moon's choice when its check of the hand finds a shooter.
(function () {
  "use strict";
  var form = document.querySelector("form.hand-form");
  if (!form) { return; }
  var rows = Array.prototype.slice.call(form.querySelectorAll("li.taking"));
  var tally = document.getElementById("tally");
  // The hearts a hand holds come from the server (R14), never from this script.
  var heartsInHand = parseInt(form.dataset.hearts, 10);

  function hearts(row) {
    var text = row.querySelector(".hearts input").value.trim();
    return /^[0-9]+$/.test(text) ? parseInt(text, 10) : 0;
  }
  function marias(row) {
    var checked = row.querySelector(".marias input:checked");
    return checked ? parseInt(checked.value, 10) : 0;
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, key) { return values[key]; });
  }

  function update() {
    var totalHearts = 0, totalMarias = 0;
    rows.forEach(function (row) {
      totalHearts += hearts(row);
      totalMarias += marias(row);
    });
    tally.textContent = fill(tally.dataset.template, { hearts: totalHearts, marias: totalMarias });
  }

  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("click", function (event) {
    var button = event.target.closest("button.rest");
    if (!button) { return; }
    event.preventDefault();
    var row = rows[parseInt(button.value, 10)];
    var others = rows.reduce(function (sum, other) { return other === row ? sum : sum + hearts(other); }, 0);
    row.querySelector(".hearts input").value = String(Math.max(heartsInHand - others, 0));
    update();
  });
  update();
}());

// Nothing typed is lost, and nothing typed for one hand fills in another. What the hand form holds
// is kept on this device as it is typed, under the game's and the hand's own key (the form's hidden
// "draft": never the hand's number, which a removal moves), with the game's revision it was typed
// against, the hand's number then and each seat's name. A draft of the page's own revision is put
// back, with a notice, after a reload, a locked phone or a lost connection. A draft typed before the
// game changed (another device, a correction, a removal, an undo) is never put back: it is offered
// beside the form, to use or to discard. Drafts of hands the game no longer has are dropped, and so
// are drafts kept the old way, by page and hand number; the page after a save drops the saved one
// (draft.js). A Save with no network is stopped with a message, keeping everything. Every word shown
// comes from the page.
(function () {
  "use strict";
  var storage;
  try { storage = window.localStorage; } catch (error) { return; }  // refused by the browser
  if (!storage) { return; }
  var OLD = "scorekeeper draft /";  // the old keys: "scorekeeper draft /games/1/hands/new 3"

  function drop(key) {
    try { storage.removeItem(key); } catch (error) { /* nothing to do */ }
  }

  var form = document.querySelector("form[data-draft]");
  if (!form) { return; }
  var key = form.elements.namedItem("draft").value;
  var revision = form.elements.namedItem("revision").value;
  var number = form.elements.namedItem("number").value;
  var game = form.getAttribute("data-draft-game");
  var hands = form.getAttribute("data-hand-keys").split(" ");
  var names = Array.prototype.map.call(form.querySelectorAll("li.taking"), function (row) {
    return row.getAttribute("data-name");
  });
  var notice = document.getElementById("draft-notice");
  var offer = document.getElementById("draft-offer");

  function forgetOthers() {  // drafts kept the old way, and this game's drafts of hands it no longer has
    var keys = [];
    for (var index = 0; index < storage.length; index += 1) { keys.push(storage.key(index)); }
    keys.forEach(function (other) {
      if (!other) { return; }
      if (other.indexOf(OLD) === 0) { drop(other); return; }
      var hand = other.slice(game.length);
      if (other.indexOf(game) === 0 && hand !== "next" && hands.indexOf(hand) < 0) { drop(other); }
    });
  }

  function typed() {  // the fields the scorer fills in: not the hidden ones, not the buttons
    return Array.prototype.filter.call(form.elements, function (field) {
      return field.name && field.type !== "hidden" && field.type !== "submit";
    });
  }

  function shown() {  // every field the scorer fills in, by name; a choice with nothing chosen is ""
    var values = {};
    typed().forEach(function (field) {
      if (field.type === "radio" || field.type === "checkbox") {
        if (!(field.name in values)) { values[field.name] = ""; }
        if (field.checked) { values[field.name] = field.value; }
      } else {
        values[field.name] = field.value;
      }
    });
    return values;
  }

  function seated(draft) {  // the draft's values, each player's moved to where they sit on this page
    var values = {};
    Object.keys(draft.values).forEach(function (name) {
      var seat = /^takings-(\d+)-(\w+)$/.exec(name);
      if (!seat) { values[name] = draft.values[name]; return; }
      var now = names.indexOf(draft.names[Number(seat[1])]);
      if (now >= 0) { values["takings-" + now + "-" + seat[2]] = draft.values[name]; }
    });
    return values;
  }

  function put(values) {
    typed().forEach(function (field) {
      if (!(field.name in values)) { return; }
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = values[field.name] === field.value;
      } else {
        field.value = values[field.name];
      }
    });
    form.dispatchEvent(new Event("input"));  // the tally follows
  }

  function plain(value) {  // "", "0" and " 07" all say the same count
    return String(value === undefined || value === null ? "" : value).trim().replace(/^0+(?=\d)/, "") || "0";
  }

  function meaning(values) {  // what the figures say, whatever way they were typed
    var plainly = {};
    Object.keys(values).sort().forEach(function (name) { plainly[name] = plain(values[name]); });
    return JSON.stringify(plainly);
  }

  function saysNoMore(draft) {  // the form already shows what the draft holds
    var now = shown();
    var after = shown();
    var values = seated(draft);
    Object.keys(values).forEach(function (name) { if (name in after) { after[name] = values[name]; } });
    return meaning(after) === meaning(now);
  }

  function read(text) {  // a draft kept by this script, or null
    try {
      var draft = JSON.parse(text);
      if (draft && typeof draft.values === "object" && draft.values && Array.isArray(draft.names)) { return draft; }
    } catch (error) { /* not one of ours */ }
    return null;
  }

  function keep() {
    try {
      var moon = document.getElementById("moon");  // shown by the server when its check found a shooter
      var shooter = moon && !moon.hidden ? moon.getAttribute("data-shooter") : null;
      storage.setItem(key, JSON.stringify({ revision: revision, number: number, names: names, values: shown(),
                                            shooter: shooter }));
    } catch (error) { /* storage full or refused: the form still works */ }
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) { return values[name]; });
  }

  function offered(draft, text) {  // the draft's figures beside the form, with a way to use or drop them
    var said = document.getElementById("draft-offer-note");
    if (said.hasAttribute("data-next") && draft.number && String(draft.number) !== number) {
      said.textContent = fill(said.getAttribute("data-next"), { number: draft.number });  // typed for another hand
    }
    var body = offer.querySelector("tbody");
    var jacks = offer.querySelectorAll("thead th").length > 3;  // a column only where J♦ score
    draft.names.forEach(function (name, seat) {
      var row = document.createElement("tr");
      var cells = [name, draft.values["takings-" + seat + "-hearts"], draft.values["takings-" + seat + "-marias"]];
      if (jacks) { cells.push(draft.values["takings-" + seat + "-jacks"]); }
      cells.forEach(function (value, column) {
        var cell = document.createElement(column ? "td" : "th");
        if (column) { cell.className = plain(value) === "0" ? "num none" : "num"; } else { cell.scope = "row"; }
        cell.textContent = column ? plain(value) : String(value);
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    var notes = offer.querySelector(".draft-notes");
    function note(words) {
      var item = document.createElement("li");
      item.textContent = words;
      notes.appendChild(item);
    }
    if (draft.values.last_trick_reserved) { note(offer.getAttribute("data-reserved")); }
    var moon = draft.values.moon;
    if (draft.shooter && (moon === "subtract" || moon === "add")) {  // the shooter as the page named them
      note(fill(offer.getAttribute("data-" + moon), { name: draft.shooter }));
    }
    offer.hidden = false;
    document.getElementById("draft-use").addEventListener("click", function () {
      put(seated(draft));  // the form's input event keeps it, now at this page's revision
      offer.hidden = true;
      notice.hidden = false;
    });
    document.getElementById("draft-discard").addEventListener("click", function () {
      try {
        if (storage.getItem(key) === text) { drop(key); }  // not what was typed here since
      } catch (error) { /* nothing to do */ }
      offer.hidden = true;
    });
  }

  try {
    forgetOthers();
    var text = storage.getItem(key);
    var draft = text && read(text);
    if (document.getElementById("error-summary") || form.querySelector(".conflict")) {
      keep();  // a page the server refilled keeps what it shows, at the revision it carries
    } else if (text && !draft) {
      drop(key);
    } else if (draft && saysNoMore(draft)) {
      drop(key);
    } else if (draft && String(draft.revision) === revision) {
      put(seated(draft));
      notice.hidden = false;
    } else if (draft) {
      offered(draft, text);
    }
  } catch (error) { /* storage refused: the form still works */ }

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
