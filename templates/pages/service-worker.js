// The service worker of an install over HTTPS (static/live.js registers it in a secure context only, never on
// this device's own loopback): it keeps the app shell, and the last copy of each game page this phone watched,
// so that a reload while the Wi-Fi drops shows the game as it last was, on a page that says when.
"use strict";
var SHELL = {{ shell_cache|tojson }}, PAGES = "scorekeeper-pages", OFFLINE = {{ offline|tojson }};
var SHELL_URLS = {{ shell|tojson }}, STATIC = {{ static_path|tojson }};
var KEPT = /^\/games\/\d+(\/watch|\/display)?$/;  // a game's pages as a watching phone reads them

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(SHELL_URLS); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("scorekeeper-shell-") === 0 && name !== SHELL;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) { return; }
  if (KEPT.test(url.pathname)) {
    event.respondWith(kept(request, url));
  } else if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(caches.match(request).then(function (found) { return found || fetch(request); }));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offline));
  }
});

// A game page from the network, its copy kept with the time (unless the page is the scorer's, never stored);
// without a network, the offline page, which shows the kept copy (static/offline.js).
function kept(request, url) {
  return fetch(request).then(function (response) {
    if (response.ok && !/no-store/.test(response.headers.get("Cache-Control") || "")) {
      var copy = response.clone();
      copy.text().then(function (page) {
        return caches.open(PAGES).then(function (cache) {
          return cache.put(url.pathname, new Response(page, {headers: {
            "Content-Type": "text/html; charset=utf-8", "X-Saved-At": new Date().toISOString()}}));
        });
      });
    }
    return response;
  }, function () {
    return request.mode === "navigate" ? offline() : Response.error();
  });
}

function offline() {
  return caches.match(OFFLINE).then(function (page) { return page || Response.error(); });
}
