// Tournament times in the viewer's own time zone. The server writes and reads them in UTC; here
// (1) every <time data-local> is rewritten in the browser's zone, (2) the new-tournament form's
// start is shown and entered on the browser's clock, its zone named in the hidden time_zone field
// (tournaments/forms.py reads the time in that zone), and (3) each [data-countdown] counts down to
// its start. Without this script everything stays in UTC and says so.
(function () {
  "use strict";

  var lang = document.documentElement.lang || undefined;
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var when = new Intl.DateTimeFormat(lang, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  });

  function localTimes(root) {
    root.querySelectorAll("time[data-local]").forEach(function (time) {
      var at = new Date(time.getAttribute("datetime"));
      if (!isNaN(at)) time.textContent = when.format(at);
    });
  }

  function pad(number) { return String(number).padStart(2, "0"); }

  // The wall-clock value a datetime-local field shows for the instant `at`, in the browser's zone.
  function wallClock(at) {
    return at.getFullYear() + "-" + pad(at.getMonth() + 1) + "-" + pad(at.getDate()) +
      "T" + pad(at.getHours()) + ":" + pad(at.getMinutes());
  }

  function localForm() {
    if (!zone) return;
    document.querySelectorAll("input[name=time_zone]").forEach(function (field) {
      field.value = zone;
      var form = field.form;
      form.querySelectorAll("[data-time-zone]").forEach(function (label) { label.textContent = zone; });
      var starts = form.querySelector("input[name=starts][data-utc]");
      if (starts) starts.value = wallClock(new Date(starts.dataset.utc));
    });
  }

  var UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  var relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });

  // "in 3 days", "in 5 hours", "in 12 minutes", "in 40 seconds": the largest unit that is at least
  // two of itself, so the count is never coarser than half of what is left.
  function countdown() {
    document.querySelectorAll("[data-countdown]").forEach(function (element) {
      var left = Math.round((new Date(element.dataset.countdown) - Date.now()) / 1000);
      if (left <= 0) {
        element.textContent = element.dataset.started;
        return;
      }
      var unit = UNITS.find(function (pair) { return left >= 2 * pair[1]; }) || UNITS[UNITS.length - 1];
      element.textContent = relative.format(Math.floor(left / unit[1]), unit[0]);
    });
  }

  localTimes(document);
  document.addEventListener("htmx:load", function (event) { localTimes(event.target); });
  localForm();
  if (document.querySelector("[data-countdown]")) {
    countdown();
    setInterval(countdown, 1000);
  }
})();
