// Card picker for thumbs, and the live answer on the settle page.
// Pages work without this script: cards can be typed.
(function () {
  "use strict";

  function slotsOf(form) {
    return Array.prototype.slice.call(form.querySelectorAll("[data-picker-slot]"));
  }

  // Where a picked card goes: the single cards box, or the focused / first empty slot.
  function place(form, card, lastFocused) {
    var box = form.querySelector("[data-picker-target]");
    if (box) {
      box.value = (box.value.trim() ? box.value.trim() + " " : "") + card;
      box.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    var slots = slotsOf(form);
    var slot = lastFocused && !lastFocused.value.trim() ? lastFocused
      : slots.filter(function (s) { return !s.value.trim(); })[0];
    if (!slot) { return; }
    // No focus() on the next box: on a phone it would open the keyboard over the picker.
    slot.value = card;
  }

  function removeLast(form) {
    var box = form.querySelector("[data-picker-target]");
    if (box) {
      box.value = box.value.trim().split(/[\s,;]+/).slice(0, -1).join(" ");
      box.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    var filled = slotsOf(form).filter(function (s) { return s.value.trim(); });
    if (filled.length) { filled[filled.length - 1].value = ""; }
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-picker]"), function (picker) {
    var form = picker.closest("form");
    var rank = null;
    var lastFocused = null;
    picker.hidden = false;
    form.addEventListener("focusin", function (event) {
      if (event.target.hasAttribute("data-picker-slot")) { lastFocused = event.target; }
    });
    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) { return; }
      if (button.dataset.rank) {
        rank = button.dataset.rank;
        Array.prototype.forEach.call(picker.querySelectorAll("[data-rank]"), function (b) {
          b.setAttribute("aria-pressed", b === button ? "true" : "false");
        });
      } else if (button.dataset.suit && rank) {
        place(form, rank + button.dataset.suit, lastFocused);
        rank = null;
        Array.prototype.forEach.call(picker.querySelectorAll("[data-rank]"), function (b) {
          b.setAttribute("aria-pressed", "false");
        });
      } else if (button.hasAttribute("data-backspace")) {
        removeLast(form);
      }
    });
  });

  // Every card typed is echoed with its suit symbol, read with the page language's letters
  // (data-card-letters), so that "9C" read as 9♥ in Portuguese shows at once.
  function reader(letters) {
    var symbols = {"♠": "♠", "♥": "♥", "♦": "♦", "♣": "♣", "♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣"};
    var faces = {"J": "J", "Q": "Q", "K": "K", "A": "A"};
    return function (text) {
      var cleaned = text.trim().replace(/\ufe0f/g, "").replace(/[a-z]/g, function (c) { return c.toUpperCase(); });
      var rank = cleaned.slice(0, -1), suit = symbols[cleaned.slice(-1)] || letters.suits[cleaned.slice(-1)];
      var known = rank in letters.ranks || rank in faces || /^(10|[2-9])$/.test(rank);
      return suit && known ? rank + suit : null;
    };
  }
  Array.prototype.forEach.call(document.querySelectorAll("form[data-card-letters]"), function (form) {
    var read = reader(JSON.parse(form.dataset.cardLetters));
    Array.prototype.forEach.call(form.querySelectorAll("[data-picker-slot], [data-picker-target]"), function (box) {
      var echo = document.createElement("output");
      echo.className = "read";
      echo.htmlFor = box.id;
      box.insertAdjacentElement("afterend", echo);
      function show() {
        var words = box.value.split(/[\s,;]+/).filter(Boolean);
        echo.textContent = words.map(function (word) { return read(word) || "?"; }).join(" ");
        echo.classList.toggle("unread", words.some(function (word) { return !read(word); }));
      }
      box.addEventListener("input", show);
      form.addEventListener("click", function () { setTimeout(show, 0); });  // the picker fills boxes too
      show();
    });
  });

  // Settle page: answer as the cards are entered, from /settle.json.
  var settle = document.querySelector("form.settle-form");
  if (!settle) { return; }
  var box = settle.querySelector("#cards");
  var answer = document.getElementById("answer");
  var leader = settle.querySelector("#leader");
  var names = leader ? Array.prototype.map.call(leader.options, function (o) { return o.text; }) : null;
  var timer = null;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function who(position) {
    if (names) { return names[(parseInt(leader.value, 10) + position) % names.length]; }
    return position === 0 ? answer.dataset.lead : answer.dataset.card.replace("{position}", position + 1);
  }

  function show(result) {
    answer.textContent = "";
    if (result.error) {
      answer.appendChild(element("p", "error", result.error));
      return;
    }
    var box = element("div", "trick-result " + (result.winner === null ? "reserved" : "won"));
    var verdict = result.winner === null ? answer.dataset.reserved
      : (names ? answer.dataset.namedWinner.replace("{name}", who(result.winner)) : answer.dataset.winner)
        .replace("{card}", result.cards[result.winner]).replace("{position}", result.winner + 1);
    box.appendChild(element("p", "verdict-line", verdict));
    var list = element("ol", "trick-cards");
    result.cards.forEach(function (card, position) {
      var cancelled = result.cancelled.indexOf(position) >= 0;
      var item = element("li", (/[♥♦]/.test(card) ? "red" : "black") + (cancelled ? " cancelled" : "")
        + (position === result.winner ? " winner" : ""));
      item.appendChild(element("span", "who", who(position)));
      item.appendChild(element("span", "card", card));
      item.appendChild(element("span", "tag", cancelled ? answer.dataset.cancelled
        : position === result.winner ? answer.dataset.wins : ""));
      list.appendChild(item);
    });
    box.appendChild(list);
    box.appendChild(element("p", "explanation", result.explanation));
    answer.appendChild(box);
  }

  function ask() {
    if (!box.value.trim()) { answer.textContent = ""; return; }
    fetch(settle.dataset.json + "&cards=" + encodeURIComponent(box.value))
      .then(function (response) { return response.json(); })
      .then(show)
      .catch(function () { /* offline or stopped: the Settle button still works */ });
  }

  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(ask, 150);
  });
  if (leader) { leader.addEventListener("change", ask); }
}());
