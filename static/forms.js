// Forms fire only on Save: Enter in a text box moves to the next box, as the phone keyboard's
// "Next" key promises; the last box's Enter, or the Save button, submits. Without this script
// Enter submits, which the server answers with the form as typed.
(function () {
  "use strict";

  var TYPED = ["text", "number", "tel", "search", "email"];

  function typedBoxes(form) {
    return Array.prototype.filter.call(form.elements, function (element) {
      return element.tagName === "INPUT" && TYPED.indexOf(element.type) >= 0 && !element.disabled &&
        element.getClientRects().length > 0;  // shown on the page
    });
  }

  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (event.key !== "Enter" || event.isComposing || !box.form || TYPED.indexOf(box.type) < 0) { return; }
    var boxes = typedBoxes(box.form);
    var next = boxes[boxes.indexOf(box) + 1];
    if (!next) { return; }
    event.preventDefault();
    next.focus();
    next.select();
  });
}());

// A link of the error summary takes the reader to its field, focused, with its label in view.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".error-summary a[href^='#']");
    var field = link && document.getElementById(link.getAttribute("href").slice(1));
    if (!field) { return; }
    event.preventDefault();
    field.scrollIntoView({block: "center"});
    field.focus({preventScroll: true});
  });
}());
