// 神迹之战 map: pan and zoom by wheel, drag, two-finger pinch and the + / − / ⤢ buttons, for the live
// board (board.js) and the replay (replay.js) alike. It moves the SVG's viewBox only; a tap that was
// no drag goes back to the caller. The map may be redrawn at any time (the live board is): it is found
// again by its selector, and the player's zoom is kept.
(function () {
  "use strict";

  // The window onto the map has the shape of the map's box: square on a phone (miracle.css, the same
  // width), elsewhere the map's own; whatever is larger than the map is centred on it.
  var PHONE = window.matchMedia("(max-width: 40rem)");

  function clamp(value, low, high) { return Math.min(high, Math.max(low, value)); }

  // ``scope``: a selector of the element holding the map (".miracle-board"); ``on``: {tap(target),
  // hover(target)}, both optional.
  window.MiracleZoom = function (scope, on) {
    on = on || {};
    var viewBox = null;
    var pointers = {};
    var drag = null;

    function svg() { return document.querySelector(scope + " .hexmap"); }

    function parse(text) {
      var b = text.split(" ").map(Number);
      return { x: b[0], y: b[1], w: b[2], h: b[3] };
    }

    function box() { return parse(svg().getAttribute("viewBox")); }

    function full() { return parse(svg().dataset.viewBox); }

    function shape() {
      var whole = full();
      return PHONE.matches ? 1 : whole.h / whole.w;
    }

    function setBox(b) {
      var whole = full();
      var ratio = shape();
      var w = Math.min(Math.max(whole.w, whole.h / ratio), Math.max(whole.w / 6, b.w));
      var h = w * ratio;
      var cx = isFinite(b.w) ? b.x + b.w / 2 : 0, cy = isFinite(b.h) ? b.y + b.h / 2 : 0;
      var x = w >= whole.w ? whole.x + (whole.w - w) / 2 : clamp(cx - w / 2, whole.x, whole.x + whole.w - w);
      var y = h >= whole.h ? whole.y + (whole.h - h) / 2 : clamp(cy - h / 2, whole.y, whole.y + whole.h - h);
      viewBox = [x, y, w, h].map(function (v) { return v.toFixed(2); }).join(" ");
      svg().setAttribute("viewBox", viewBox);
    }

    function wholeView() {
      var whole = full();
      setBox({ x: whole.x, y: whole.y, w: Infinity, h: Infinity });
      viewBox = null;
    }

    // The view before any zoom: on a narrow screen the map at the height of its box (both miracles in
    // view, bigger cells), else the whole map. Not kept as the player's zoom: a resize starts it again.
    function startView() {
      var whole = full();
      if (PHONE.matches) setBox({ x: whole.x + (whole.w - whole.h) / 2, y: whole.y, w: whole.h, h: whole.h });
      else wholeView();
      viewBox = null;
    }

    function zoom(factor, cx, cy) {
      var b = box();
      if (cx === undefined) { cx = b.x + b.w / 2; cy = b.y + b.h / 2; }
      setBox({ x: cx - (cx - b.x) / factor, y: cy - (cy - b.y) / factor, w: b.w / factor, h: b.h / factor });
    }

    // Brings the point (map units) into view at the present zoom, moving as little as it can.
    function show(x, y, margin) {
      if (!viewBox) return;
      var b = box();
      var nx = clamp(b.x, x + margin - b.w, x - margin), ny = clamp(b.y, y + margin - b.h, y - margin);
      if (nx !== b.x || ny !== b.y) setBox({ x: nx, y: ny, w: b.w, h: b.h });
    }

    function toMap(clientX, clientY) {
      var rect = svg().getBoundingClientRect();
      var b = box();
      return { x: b.x + (clientX - rect.left) / rect.width * b.w, y: b.y + (clientY - rect.top) / rect.height * b.h };
    }

    function inMap(target) { return target.closest && target.closest(scope + " .hexmap"); }

    document.addEventListener("pointerdown", function (event) {
      if (!inMap(event.target)) return;
      pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
      drag = { moved: 0 };
    });
    document.addEventListener("pointermove", function (event) {
      var last = pointers[event.pointerId];
      if (!last || !drag) {
        if (on.hover && inMap(event.target)) on.hover(event.target);
        return;
      }
      var ids = Object.keys(pointers);
      var rect = svg().getBoundingClientRect();
      var b = box();
      if (ids.length === 2) {
        var other = pointers[ids[0] == event.pointerId ? ids[1] : ids[0]];
        var before = Math.hypot(last.x - other.x, last.y - other.y);
        var after = Math.hypot(event.clientX - other.x, event.clientY - other.y);
        if (before > 0) {
          var mid = toMap((event.clientX + other.x) / 2, (event.clientY + other.y) / 2);
          zoom(after / before, mid.x, mid.y);
        }
        drag.moved += 10;
      } else {
        var dx = event.clientX - last.x, dy = event.clientY - last.y;
        drag.moved += Math.abs(dx) + Math.abs(dy);
        if (drag.moved > 6) setBox({ x: b.x - dx / rect.width * b.w, y: b.y - dy / rect.height * b.h, w: b.w, h: b.h });
      }
      pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    });
    document.addEventListener("pointerup", function (event) {
      if (!pointers[event.pointerId]) return;
      delete pointers[event.pointerId];
      var wasDrag = drag && drag.moved > 6;
      if (!Object.keys(pointers).length) drag = null;
      if (!wasDrag && on.tap) on.tap(event.target);
    });
    document.addEventListener("pointercancel", function (event) { delete pointers[event.pointerId]; drag = null; });
    document.addEventListener("wheel", function (event) {
      if (!inMap(event.target)) return;
      event.preventDefault();
      var at = toMap(event.clientX, event.clientY);
      zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, at.x, at.y);
    }, { passive: false });
    document.addEventListener("click", function (event) {
      var z = event.target.closest(scope + " .zoom-buttons [data-zoom]");
      if (!z) return;
      if (z.dataset.zoom === "reset") wholeView();
      else zoom(z.dataset.zoom === "in" ? 1.4 : 1 / 1.4);
    });
    window.addEventListener("resize", function () {
      if (!svg()) return;
      if (viewBox) setBox(box());
      else startView();
    });

    return {
      svg: svg,
      zoom: zoom,
      show: show,
      wholeView: wholeView,
      // A map drawn afresh gets the player's zoom back (or the start view).
      keep: function () {
        var map = svg();
        if (map && viewBox) map.setAttribute("viewBox", viewBox);
        else if (map) startView();
      },
      // Keys + - 0, for the page that owns the keyboard.
      key: function (key) {
        if (key === "+" || key === "=") zoom(1.4);
        else if (key === "-") zoom(1 / 1.4);
        else if (key === "0") wholeView();
        else return false;
        return true;
      },
    };
  };
})();
