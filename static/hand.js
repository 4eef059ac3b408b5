// Record-a-hand form: live tally, "Rest" without a round trip, and the moon
// choice as soon as someone has everything. The form works without this script.
(function () {
  "use strict";
  var form = document.querySelector("form.hand-form");
  if (!form) { return; }
  var rows = Array.prototype.slice.call(form.querySelectorAll("li.taking"));
  var tally = document.getElementById("tally");
  var moon = document.getElementById("moon");
  // The rules' numbers come from the server (R14), never from this script.
  var heartsInHand = parseInt(form.dataset.hearts, 10);
  var mariasInHand = parseInt(form.dataset.marias, 10);

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
    var totalHearts = 0, totalMarias = 0, shooter = null;
    rows.forEach(function (row) {
      totalHearts += hearts(row);
      totalMarias += marias(row);
      if (hearts(row) === heartsInHand && marias(row) === mariasInHand) { shooter = row; }
    });
    tally.textContent = fill(tally.dataset.template, { hearts: totalHearts, marias: totalMarias });
    moon.hidden = shooter === null;
    if (shooter) {
      var name = shooter.dataset.name;
      moon.querySelector("legend").textContent = fill(moon.dataset.legend, { name: name });
      var subtract = moon.querySelector("label[for=moon-subtract]");  // absent where a house rule only adds
      if (subtract) { subtract.textContent = fill(moon.dataset.subtract, { name: name }); }
    }
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
