// Keeps the screen on while a game page is open (switch: games/awake.html): the Wake Lock where the browser
// has it; over plain http a silent video from the first tap, muted, over the page but transparent (Chromium
// keeps the screen on for a muted video only if it is large and on screen), looped by hand (Safari lets a
// looping video sleep). Where neither works, the page says so.
(function () {
  "use strict";
  var control = document.querySelector("[data-awake]");
  if (!control) { return; }
  var box = control.querySelector("input"), status = control.querySelector("[aria-live]"), words = control.dataset;
  var lock = null, video = null, started = false, waiting = false;
  var TAPS = ["pointerdown", "keydown", "touchend", "click"];

  function say(state) { status.textContent = words[state]; control.dataset.state = state; }
  function remember(on) { try { localStorage.setItem("awake", on ? "on" : "off"); } catch (e) { /* private */ } }

  function keepAwake() {
    if (!box.checked || document.visibilityState !== "visible") { return; }
    if (!("wakeLock" in navigator)) { return withVideo(); }
    if (lock) { return say("on"); }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      lock.addEventListener("release", function () { lock = null; });
      say("on");
    }).catch(withVideo);
  }

  function withVideo() {
    if (!video) {
      video = document.createElement("video");
      var type = ["webm", "mp4"].filter(function (kind) { return video.canPlayType("video/" + kind); })[0];
      if (!type) { video = null; return say("cannot"); }
      video.muted = true;
      video.setAttribute("playsinline", "");
      video.setAttribute("aria-hidden", "true");
      video.preload = "none";
      video.className = "awake-video";
      video.src = words[type];
      video.addEventListener("timeupdate", function () {
        if (video.currentTime > video.duration - 1) { video.currentTime = 0; }
      });
      document.body.appendChild(video);
    }
    if (!video.paused) { return say("on"); }
    if (started) { return play(waitForTap); }  // back in view
    waitForTap();
  }

  function waitForTap() {
    waiting = true;
    TAPS.forEach(function (name) { document.addEventListener(name, onTap, true); });
    say("tap");
  }

  function onTap() {
    if (!waiting) { return; }
    waiting = false;
    TAPS.forEach(function (name) { document.removeEventListener(name, onTap, true); });
    if (box.checked) { play(function () { video.pause(); say("cannot"); }); }
  }

  function play(refused) {
    video.play().then(function () { started = true; say("on"); }, refused);
  }

  box.checked = (function () { try { return localStorage.getItem("awake") !== "off"; } catch (e) { return true; } }());
  box.addEventListener("change", function () {
    remember(box.checked);
    if (box.checked) { return keepAwake(); }
    if (lock) { lock.release(); lock = null; }
    if (video) { video.pause(); }
    say("off");
  });
  document.addEventListener("visibilitychange", keepAwake);
  control.hidden = false;
  if (box.checked) { keepAwake(); } else { say("off"); }
}());
