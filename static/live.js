// Keeps a game page up to date: asks for the game's revision every 1.5
// seconds (an empty 304 while nothing changed) and, when it moves, swaps in
// the fresh page content without a reload. Without this script, a refresh
// shows the new state.
(function () {
  "use strict";
  var region = document.querySelector("[data-live]");
  if (!region || !window.fetch || !window.DOMParser) { return; }
  var EVERY = 1500;  // a change shows within about two seconds
  // Over HTTPS, a service worker keeps this page's last state for a reload while the Wi-Fi drops (not on
  // this device's own loopback, which never drops; plain http has no service workers).
  if (window.isSecureContext && navigator.serviceWorker && region.dataset.worker &&
      !/^(localhost|127\.|\[::1\]$)/.test(location.hostname)) {
    navigator.serviceWorker.register(region.dataset.worker).catch(function () { /* the page works without */ });
  }

  function refresh() {
    return fetch(location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-live]");
        if (!fresh) { return; }
        var open = Array.prototype.map.call(region.querySelectorAll("details[open]"), function (d) { return d.className; });
        region.replaceWith(fresh);
        region = fresh;
        open.forEach(function (name) {
          var details = region.querySelector("details." + name);
          if (details) { details.open = true; }
        });
      });
  }

  function poll() {
    if (document.hidden) { return setTimeout(poll, EVERY); }
    fetch(region.dataset.live, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) {
        if (state && String(state.revision) !== region.dataset.revision) { return refresh(); }
      })
      .catch(function () { /* the server is away for a moment: try again */ })
      .then(function () { setTimeout(poll, EVERY); });
  }
  setTimeout(poll, EVERY);
}());
