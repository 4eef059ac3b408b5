// Keeps the screen on while a game page is open, where the browser allows it
// (Screen Wake Lock); the lock is taken again when the page comes back into view.
(function () {
  "use strict";
  if (!("wakeLock" in navigator)) { return; }
  var lock = null;
  function keepAwake() {
    if (document.visibilityState !== "visible" || lock) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused (battery saver, no permission): the page still works */ });
  }
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();
}());
