// Card picker for thumbs, and the live answer on the settle page.
// Pages work without this script: cards can be typed.
(function () {
  "use strict";

  function slotsOf(form) {
    return Array.prototype.slice.call(form.querySelectorAll("[data-picker-slot]"));
  }

  // Where a tapped card goes: the single cards box, or the first empty slot in play order (or the one
  // focused, if empty). No focus() on the slots: on a phone it would open the keyboard over the grid.
  function place(form, card, lastFocused) {
    var box = form.querySelector("[data-picker-target]");
    if (box) {
      box.value = (box.value.trim() ? box.value.trim() + " " : "") + card;
      box.dispatchEvent(new Event("input", { bubbles: true }));
      return true;
    }
    var slots = slotsOf(form);
    var slot = lastFocused && !lastFocused.value.trim() ? lastFocused
      : slots.filter(function (s) { return !s.value.trim(); })[0];
    if (!slot) { return false; }
    slot.value = card;
    slot.dispatchEvent(new Event("input", { bubbles: true }));
    if (!slots.some(function (s) { return !s.value.trim(); })) {
      var save = form.querySelector("button[type=submit]:not(.default-submit)");
      if (save) { save.focus(); }  // the trick is whole: Settle is next
    }
    return true;
  }

  function removeLast(form) {
    var box = form.querySelector("[data-picker-target]");
    var word = null;
    if (box) {
      var words = box.value.trim().split(/[\s,;]+/).filter(Boolean);
      word = words.pop() || null;
      box.value = words.join(" ");
      box.dispatchEvent(new Event("input", { bubbles: true }));
      return word;
    }
    var filled = slotsOf(form).filter(function (s) { return s.value.trim(); });
    if (!filled.length) { return null; }
    var slot = filled[filled.length - 1];
    word = slot.value.trim();
    slot.value = "";
    slot.dispatchEvent(new Event("input", { bubbles: true }));
    return word;
  }

  // The grid: one button a card, a row a suit, each showing how many copies are left. The page
  // gives the rows, their cards and the copies left of each before this entry (R2); the cards in the
  // boxes, tapped or typed (in the page language's letters), are counted off at every change.
  function buildGrid(picker, read) {
    var buttons = {};
    JSON.parse(picker.dataset.grid).forEach(function (suit) {
      var row = document.createElement("div");
      row.className = "suit-row" + (suit.red ? " red" : "");
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", suit.suit + " " + suit.name);
      suit.cards.forEach(function (entry) {
        var card = entry[0];
        var button = document.createElement("button");
        button.type = "button";
        button.dataset.card = card;
        button.dataset.copies = String(entry[1]);
        button.textContent = card.slice(0, -1) + "\n" + card.slice(-1);
        button.setAttribute("aria-label", card);
        buttons[card] = button;
        row.appendChild(button);
      });
      picker.insertBefore(row, picker.lastElementChild);
    });
    function count(words) {
      var entered = {};
      words.forEach(function (word) {
        var card = read(word) || word;
        entered[card] = (entered[card] || 0) + 1;
      });
      Object.keys(buttons).forEach(function (card) {
        var button = buttons[card];
        var left = Number(button.dataset.copies) - (entered[card] || 0);
        button.dataset.left = String(left);
        button.disabled = left <= 0;
        button.title = left <= 0 ? picker.dataset.noneLeft.replace("{card}", card) : "";
      });
    }
    return { count: count };
  }

  function wordsIn(form) {
    return slotsOf(form).concat(Array.prototype.slice.call(form.querySelectorAll("[data-picker-target]")))
      .reduce(function (words, box) { return words.concat(box.value.split(/[\s,;]+/).filter(Boolean)); }, []);
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-picker]"), function (picker) {
    var form = picker.closest("form");
    var lastFocused = null;
    var read = form.dataset.cardLetters ? reader(JSON.parse(form.dataset.cardLetters)) : function () { return null; };
    var grid = buildGrid(picker, read);
    picker.hidden = false;
    grid.count(wordsIn(form));  // cards already typed (a refused trick shown again) are not left
    form.addEventListener("input", function () { grid.count(wordsIn(form)); });
    form.addEventListener("focusin", function (event) {
      if (event.target.hasAttribute("data-picker-slot")) { lastFocused = event.target; }
    });
    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) { return; }
      if (button.dataset.card) {
        place(form, button.dataset.card, lastFocused);
        lastFocused = null;
      } else if (button.hasAttribute("data-backspace")) {
        removeLast(form);
      }
    });
  });

  // Every card typed is echoed with its suit symbol, read with the page language's letters
  // (data-card-letters), so that "9C" read as 9♥ in Portuguese shows at once.
  // A rank typed with the language's own letter (Portuguese "DE") is echoed as the cards print it (Q♠).
  function reader(letters) {
    var symbols = {"♠": "♠", "♥": "♥", "♦": "♦", "♣": "♣", "♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣"};
    var printed = {"J": 11, "Q": 12, "K": 13, "A": 14}, faces = {11: "J", 12: "Q", 13: "K", 14: "A"};
    return function (text) {
      var cleaned = text.trim().replace(/\ufe0f/g, "").replace(/[a-z]/g, function (c) { return c.toUpperCase(); });
      var rank = cleaned.slice(0, -1), suit = symbols[cleaned.slice(-1)] || letters.suits[cleaned.slice(-1)];
      var face = faces[letters.ranks[rank] || printed[rank]];
      var known = face || /^(10|[2-9])$/.test(rank);
      return suit && known ? (face || rank) + suit : null;
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
    (result.notes || []).forEach(function (note) { box.appendChild(element("p", "hint", note)); });
    answer.appendChild(box);
  }

  // Live answers only replace the answer; "Settle it" also brings it into view (on a phone it is below
  // the grid) and focuses it, and keeps the cards in the address, as the page without the script does.
  function ask(reveal) {
    if (!box.value.trim()) { answer.textContent = ""; return; }
    fetch(settle.dataset.json + "&cards=" + encodeURIComponent(box.value))
      .then(function (response) { return response.json(); })
      .then(function (result) {
        show(result);
        if (!reveal) { return; }
        var query = new URLSearchParams(new FormData(settle)).toString();
        history.replaceState(null, "", settle.getAttribute("action").split("#")[0] + "?" + query + "#answer");
        answer.scrollIntoView({ block: "start" });
        answer.focus({ preventScroll: true });
      })
      .catch(function () { if (reveal) { settle.submit(); } });  // offline or stopped: the page answers
  }

  settle.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    if (box.value.trim()) { ask(true); } else { box.focus(); }
  });

  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { ask(false); }, 150);
  });
  if (leader) { leader.addEventListener("change", function () { ask(false); }); }
}());
