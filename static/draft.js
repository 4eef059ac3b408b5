// The page after a saved hand names the draft of it kept on this device (hand.js): it is done with.
(function () {
  "use strict";
  try {
    Array.prototype.forEach.call(document.querySelectorAll("[data-draft-saved]"), function (saved) {
      localStorage.removeItem(saved.getAttribute("data-draft-saved"));
    });
  } catch (error) { /* storage refused: nothing was kept */ }
}());
