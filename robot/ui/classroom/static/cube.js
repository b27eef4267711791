/* cubebot classroom: the cube drawn in SVG, as a net and in an isometric view.
   Facelets come as strings in URFDLB order (N*N per face, row by row as the
   face is seen from outside, the standard net: U above F, D below F). */
"use strict";

var CubeDraw = (function () {
  var SVGNS = "http://www.w3.org/2000/svg";
  var FACES = "URFDLB";
  var PALETTE = { U: "#f4f4f4", R: "#d21f1f", F: "#10a04a", D: "#ffd500", L: "#ff7a00", B: "#1560d0" };
  var UNKNOWN = "#3a3a3a";
  var NET_CELLS = { U: [1, 0], L: [0, 1], F: [1, 1], R: [2, 1], B: [3, 1], D: [1, 2] };
  var COS30 = Math.cos(Math.PI / 6), SIN30 = 0.5;

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVGNS, name);
    for (var key in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, key)) node.setAttribute(key, attrs[key]); }
    if (parent) parent.appendChild(node);
    return node;
  }

  function clear(svg) { while (svg.firstChild) svg.removeChild(svg.firstChild); }

  /* Raw sensor counts -> a display colour: each channel scaled by the brightest reading of
     that channel in this scan (the EV3's channels have very different gains). */
  function rawScale(raw) {
    var top = [1, 1, 1];
    for (var key in raw) {
      if (!Object.prototype.hasOwnProperty.call(raw, key)) continue;
      for (var c = 0; c < 3; c++) top[c] = Math.max(top[c], Number(raw[key][c]) || 0);
    }
    return function (rgb) {
      var out = [];
      for (var c = 0; c < 3; c++) out.push(Math.max(0, Math.min(255, Math.round(255 * (Number(rgb[c]) || 0) / top[c]))));
      return "rgb(" + out.join(",") + ")";
    };
  }

  /* What each colour reads as, relative to white, channel by channel: typical EV3 raw readings
     (the scheme's EV3_TYPICAL_RAW) divided by white's. */
  var REFERENCE = { white: [1, 1, 1], yellow: [0.92, 0.58, 0.09], orange: [0.92, 0.21, 0.07],
                    red: [0.69, 0.11, 0.07], green: [0.11, 0.53, 0.14], blue: [0.10, 0.25, 0.48] };
  var SHOWN = { white: "#f4f4f4", yellow: "#ffd500", orange: "#ff7a00", red: "#d21f1f",
                green: "#10a04a", blue: "#1560d0" };

  /* Face letter -> display colour. A letter names the face whose colour a facelet has, not the
     colour itself (a 2x2x2's letters follow one fixed corner), so the colours are found from the
     readings: each letter's mean reading, divided channel by channel by the brightest letter's
     (white's), is matched one to one to the reference colours, the assignment with the least
     total squared distance (all 720 tried). Without a whole scan: the standard scheme. */
  function letterColours(raw, resolved) {
    var sums = {}, key, c;
    for (key in raw) {
      if (!Object.prototype.hasOwnProperty.call(raw, key) || !resolved) continue;
      var letter = resolved.charAt(Number(key));
      if (!letter) continue;
      var sum = sums[letter] || (sums[letter] = [0, 0, 0, 0]);
      for (c = 0; c < 3; c++) sum[c] += Number(raw[key][c]) || 0;
      sum[3] += 1;
    }
    var letters = Object.keys(sums);
    if (letters.length !== 6) return PALETTE;
    var means = {}, white = null;
    letters.forEach(function (l) {
      means[l] = [sums[l][0] / sums[l][3], sums[l][1] / sums[l][3], sums[l][2] / sums[l][3]];
      if (white === null || means[l][0] + means[l][1] + means[l][2] > white[0] + white[1] + white[2]) white = means[l];
    });
    var names = Object.keys(REFERENCE), cost = {};
    letters.forEach(function (l) {
      cost[l] = names.map(function (name) {
        var d = 0;
        for (var k = 0; k < 3; k++) { var e = means[l][k] / Math.max(white[k], 1) - REFERENCE[name][k]; d += e * e; }
        return d;
      });
    });
    var best = null, bestCost = Infinity;
    (function search(i, used, chosen, total) {
      if (total >= bestCost) return;
      if (i === letters.length) { best = chosen.slice(); bestCost = total; return; }
      for (var j = 0; j < names.length; j++) {
        if (used[j]) continue;
        used[j] = true;
        chosen.push(j);
        search(i + 1, used, chosen, total + cost[letters[i]][j]);
        chosen.pop();
        used[j] = false;
      }
    })(0, {}, [], 0);
    var out = {};
    letters.forEach(function (l, i) { out[l] = SHOWN[names[best[i]]]; });
    return out;
  }

  var colours = PALETTE;
  function colourOf(letter) { return colours[letter] || UNKNOWN; }

  /* Set the letter colours from a scan (call before drawing). */
  function useScan(scan) {
    colours = scan && scan.resolved ? letterColours(scan.raw || {}, scan.resolved) : PALETTE;
  }

  /* The net: for each facelet the raw reading (upper-left triangle) beside the resolved
     colour (lower-right), doubtful facelets ringed and marked "?", rescanned ones marked. */
  function drawNet(svg, n, scan) {
    clear(svg);
    var width = 560, height = 420;
    var face = Math.min(width / 4, height / 3), cell = face / n, gap = Math.max(0.6, cell * 0.06);
    var raw = (scan && scan.raw) || {}, resolved = scan && scan.resolved;
    var toRgb = rawScale(raw);
    var doubtful = {}, rescanned = {};
    ((scan && scan.doubtful) || []).forEach(function (i) { doubtful[String(i)] = true; });
    ((scan && scan.rescanned) || []).forEach(function (i) { rescanned[String(i)] = true; });
    for (var f = 0; f < 6; f++) {
      var letter = FACES[f], at = NET_CELLS[letter];
      var fx = at[0] * face, fy = at[1] * face;
      el("rect", { x: fx, y: fy, width: face, height: face, fill: "#000" }, svg);
      for (var r = 0; r < n; r++) {
        for (var c = 0; c < n; c++) {
          var index = f * n * n + r * n + c, key = String(index);
          var x = fx + c * cell + gap, y = fy + r * cell + gap, s = cell - 2 * gap;
          var resolvedColour = resolved ? colourOf(resolved.charAt(index)) : UNKNOWN;
          var g = el("g", { "class": "facelet", "data-index": key }, svg);
          el("rect", { x: x, y: y, width: s, height: s, fill: resolvedColour }, g);
          if (raw[key]) {
            el("polygon", { points: [x, y, x + s, y, x, y + s].join(" "), fill: toRgb(raw[key]),
                            "class": "raw" }, g);
          }
          if (doubtful[key]) {
            el("rect", { x: x + 1, y: y + 1, width: s - 2, height: s - 2, fill: "none", stroke: "#ff4fd8",
                         "stroke-width": Math.max(2, s * 0.1), "class": "doubtful" }, g);
            mark(g, x, y, s, "?", "#ff4fd8");
          } else if (rescanned[key]) {
            mark(g, x, y, s, "\u21bb", "#7fd0ff");
          }
        }
      }
      el("text", { x: fx + face / 2, y: fy + face / 2, "text-anchor": "middle", "dominant-baseline": "central",
                   "font-size": face * 0.22, fill: "rgba(0,0,0,.35)", "font-weight": "bold",
                   "pointer-events": "none" }, svg).textContent = n > 3 ? letter : "";
    }
  }

  function mark(g, x, y, s, text, colour) {
    if (s < 14) return;
    var t = el("text", { x: x + s * 0.72, y: y + s * 0.3, "text-anchor": "middle", "dominant-baseline": "central",
                         "font-size": s * 0.42, "font-weight": "bold", fill: colour, stroke: "#000",
                         "stroke-width": Math.max(0.6, s * 0.02) }, g);
    t.textContent = text;
  }

  /* Isometric view. Cube space: x to R, y up to U, z to F, each in 0..n. */
  function project(p, scale, n) {
    var x = p[0] - n / 2, y = p[1] - n / 2, z = p[2] - n / 2;
    return [(x - z) * COS30 * scale, (x + z) * SIN30 * scale - y * scale];
  }

  /* Facelet (face, row, col) -> its four corners in cube space. */
  function corners(letter, r, c, n) {
    switch (letter) {
      case "U": return [[c, n, r], [c + 1, n, r], [c + 1, n, r + 1], [c, n, r + 1]];
      case "F": return [[c, n - r, n], [c + 1, n - r, n], [c + 1, n - r - 1, n], [c, n - r - 1, n]];
      case "R": return [[n, n - r, n - c], [n, n - r, n - c - 1], [n, n - r - 1, n - c - 1], [n, n - r - 1, n - c]];
      case "D": return [[c, 0, n - r], [c + 1, 0, n - r], [c + 1, 0, n - r - 1], [c, 0, n - r - 1]];
      case "L": return [[0, n - r, c], [0, n - r, c + 1], [0, n - r - 1, c + 1], [0, n - r - 1, c]];
      default:  return [[n - c, n - r, 0], [n - c - 1, n - r, 0], [n - c - 1, n - r - 1, 0], [n - c, n - r - 1, 0]];
    }
  }

  var NORMAL = { U: [0, 1, 0], D: [0, -1, 0], R: [1, 0, 0], L: [-1, 0, 0], F: [0, 0, 1], B: [0, 0, -1] };

  /* The layers a move token turns: [face, first, last] (1 = the face's own layer), or null. */
  function moveLayers(token, n) {
    var m = /^([0-9]*)([URFDLB])(w?)(2'|'2|2|'|)$/.exec(token || "");
    if (!m) return null;
    var depth = m[1] ? parseInt(m[1], 10) : null;
    if (m[3]) return [m[2], 1, Math.min(n, depth || 2)];
    return depth ? [m[2], depth, depth] : [m[2], 1, 1];
  }

  /* True if the facelet with these corners lies in the turned layers. */
  function inLayers(pts, letter, layers, n) {
    var centre = [0, 0, 0], k, normal = NORMAL[letter];
    pts.forEach(function (p) { for (k = 0; k < 3; k++) centre[k] += p[k] / 4; });
    for (k = 0; k < 3; k++) centre[k] -= 0.5 * normal[k];       // the middle of its piece
    var axis = NORMAL[layers[0]], depth = 0;
    for (k = 0; k < 3; k++) {
      if (axis[k] > 0) depth = n - centre[k];
      if (axis[k] < 0) depth = centre[k];
    }
    var layer = Math.floor(depth) + 1;
    return layer >= layers[1] && layer <= layers[2];
  }

  /* faces: the three faces seen; back: seen from the opposite corner (D, L, B);
     next: the move about to turn, whose layers are outlined. */
  function drawIso(svg, n, facelets, back, next) {
    clear(svg);
    var scale = 150 / (n * 1.05 * 1.0) / 1.0;
    var seen = back ? "DLB" : "URF";
    var layers = facelets ? moveLayers(next, n) : null, outlined = [];
    for (var k = 0; k < 3; k++) {
      var letter = seen.charAt(k), f = FACES.indexOf(letter);
      for (var r = 0; r < n; r++) {
        for (var c = 0; c < n; c++) {
          var cube = corners(letter, r, c, n);
          var pts = cube.map(function (p) {
            var q = back ? [n - p[0], n - p[1], n - p[2]] : p;
            return project(q, scale * 0.95, n).map(function (v) { return v.toFixed(1); }).join(",");
          });
          var colour = facelets ? colourOf(facelets.charAt(f * n * n + r * n + c)) : UNKNOWN;
          el("polygon", { points: pts.join(" "), fill: colour, stroke: "#000",
                          "stroke-width": Math.max(0.8, 6 / n), "stroke-linejoin": "round" }, svg);
          if (layers && inLayers(cube, letter, layers, n)) outlined.push(pts.join(" "));
        }
      }
    }
    outlined.forEach(function (points) {        // on top, so that no neighbour hides an edge
      el("polygon", { points: points, fill: "none", stroke: "#f2c230", "stroke-width": Math.max(2, 14 / n),
                      "stroke-linejoin": "round", "class": "turning" }, svg);
    });
  }

  var FACE_WORDS = { U: "top", D: "bottom", R: "right", L: "left", F: "front", B: "back" };

  /* A move token in plain words: "R'" -> "right face, anticlockwise". */
  function moveWords(token) {
    var m = /^([0-9]*)([URFDLB])(w?)(2'|'2|2|'|)$/.exec(token || "");
    if (!m) return "";
    var layers = m[3] ? (m[1] ? m[1] + " layers" : "2 layers") : (m[1] ? "layer " + m[1] : "face");
    var turn = m[4] === "'" ? "anticlockwise" : (m[4] === "" ? "clockwise" : "half turn");
    return FACE_WORDS[m[2]] + " " + layers + ", " + turn;
  }

  return { drawNet: drawNet, drawIso: drawIso, moveWords: moveWords, useScan: useScan,
           letterColours: letterColours, moveLayers: moveLayers };
})();
