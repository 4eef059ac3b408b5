// The offline page (templates/pages/offline.html), shown by the service worker in place of a game page it
// cannot fetch: it shows the copy of that page kept on this phone and when it was kept, and reloads the
// page as soon as the scorekeeper answers again.
(function () {
  "use strict";
  var note = document.querySelector("[data-offline]");
  if (window.caches) {
    caches.open("scorekeeper-pages").then(function (cache) { return cache.match(location.pathname); }).then(function (saved) {
      if (!saved) { return; }
      var at = new Date(saved.headers.get("X-Saved-At"));
      return saved.text().then(function (page) {
        var copy = new DOMParser().parseFromString(page, "text/html");
        var live = copy.querySelector("[data-live]");
        if (!live) { return; }
        live.removeAttribute("data-live");  // nothing polls here
        document.querySelector("[data-live]").replaceWith(live);
        document.title = copy.title;
        var time = at.toLocaleString(document.documentElement.lang, {
          weekday: "short", hour: "2-digit", minute: "2-digit"});
        note.textContent = note.dataset.kept.replace("{time}", time);
        note.dataset.keptAt = at.toISOString();
      });
    });
  }
  function tryAgain() {
    fetch(location.href, { method: "HEAD", cache: "no-store" })
      .then(function (response) { if (response.ok) { location.reload(); } else { setTimeout(tryAgain, 5000); } },
            function () { setTimeout(tryAgain, 5000); });
  }
  setTimeout(tryAgain, 5000);
}());
