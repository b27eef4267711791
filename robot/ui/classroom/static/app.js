/* cubebot classroom: the page. Every snapshot from /events is whole: the page draws it
   from scratch, so a tab opened late or one that reconnects is right at once. */
"use strict";

(function () {
  var last = null;            // the last snapshot
  var offset = 0;             // this browser's clock minus the server's, in seconds
  var stream = null;
  var streamUp = false;
  var drawnNet = "", drawnCube = "";
  var RUNS_SHOWN = 4;        // the newest runs in the table (all of them in the CSV)
  var BATTERY_EMPTY_V = 6.5, BATTERY_FULL_V = 8.3, BATTERY_LOW_V = 7.0;

  function $(id) { return document.getElementById(id); }

  function clock(seconds) {
    if (seconds === null || seconds === undefined || !isFinite(seconds)) return "-";
    seconds = Math.max(0, Math.round(seconds));
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function serverNow() { return Date.now() / 1000 - offset; }

  // -- the stream ---------------------------------------------------------------------
  function connect() {
    stream = new EventSource("/events");
    stream.addEventListener("snapshot", function (e) {
      var snap;
      try { snap = JSON.parse(e.data); } catch (err) { return; }
      streamUp = true;
      offset = Date.now() / 1000 - snap.now;
      last = snap;
      render(snap);
    });
    stream.onopen = function () { streamUp = true; };
    stream.onerror = function () {
      streamUp = false;
      showServerLost();
      if (stream.readyState === EventSource.CLOSED) {   // the browser gave up: start again
        stream.close();
        setTimeout(connect, 2000);
      }
    };
  }

  function showServerLost() {
    var banner = $("banner");
    banner.className = "tone-fault";
    $("banner-text").textContent = "Page server lost: reconnecting";
    setLink("down", "server");
    document.body.setAttribute("data-server", "lost");
    setButtons(null);
  }

  // -- drawing ------------------------------------------------------------------------
  function setLink(state, text) {
    var cls = state === "up" ? "ind-up" : (state === "down" || state === "quiet" ? "ind-down" : "ind-wait");
    $("link").className = "ind " + cls;
    $("link-text").textContent = text;
  }

  function render(s) {
    document.body.setAttribute("data-server", "up");
    var robotState = s.robot.state || "";
    document.body.setAttribute("data-state", robotState);
    document.body.setAttribute("data-link", s.link.state);
    $("banner").className = "tone-" + (s.banner.tone || "busy");
    $("banner-text").textContent = s.banner.text;
    $("banner-detail").textContent = s.banner.detail || "";
    $("note").textContent = s.note || "";
    setLink(s.link.state, linkText(s.link));
    renderBattery(s.robot.battery_v);
    renderSizes(s.robot);
    var run = s.run;
    var size = run ? run.size : (s.robot.size || 3);
    var scan = run ? run.scan : null;
    var netKey = JSON.stringify([size, scan]);
    CubeDraw.useScan(scan);
    if (netKey !== drawnNet) { CubeDraw.drawNet($("net"), size, scan); drawnNet = netKey; }
    var cube = run ? (run.cube || (scan && scan.resolved)) : null;
    var sol = run && run.solution;
    var next = sol && !run.ended && run.phase === "turning" && sol.done < sol.moves.length ? sol.moves[sol.done] : null;
    var cubeKey = size + ":" + cube + ":" + (scan && scan.resolved) + ":" + next;
    if (cubeKey !== drawnCube) {
      CubeDraw.drawIso($("cube3d"), size, cube, false, next);
      CubeDraw.drawIso($("cube3d-back"), size, cube, true, next);
      drawnCube = cubeKey;
    }
    renderSolution(run);
    renderTimers();
    renderRuns(s.runs || [], s.runs_total || 0);
    var pairing = s.link.pairing || {};
    $("pair").hidden = !(pairing.required && !pairing.paired);
    setButtons(s);
  }

  function linkText(link) {
    var words = { up: "link", connecting: "connecting", down: "link lost", quiet: "no answer" };
    var text = (words[link.state] || link.state) + ": " + link.target;
    if (link.pairing && link.pairing.required) text += link.pairing.paired ? " (paired)" : " (watching)";
    return text;
  }

  function renderBattery(volts) {
    var box = $("battery");
    if (volts === null || volts === undefined) {
      $("batt-text").textContent = "no battery";
      $("batt-fill").style.width = "0";
      box.className = "ind";
      return;
    }
    var part = Math.max(0, Math.min(1, (volts - BATTERY_EMPTY_V) / (BATTERY_FULL_V - BATTERY_EMPTY_V)));
    $("batt-fill").style.width = Math.round(part * 100) + "%";
    $("batt-text").textContent = volts.toFixed(1) + " V";
    box.className = "ind" + (volts < BATTERY_LOW_V ? " batt-low" : "");
  }

  function renderSizes(robot) {
    var select = $("size"), sizes = robot.sizes || [];
    var key = sizes.join(",");
    if (select.getAttribute("data-sizes") === key) return;
    select.setAttribute("data-sizes", key);
    while (select.firstChild) select.removeChild(select.firstChild);
    sizes.forEach(function (n) {
      var opt = document.createElement("option");
      opt.value = n;
      opt.textContent = n + "x" + n + "x" + n;
      if (n === robot.size) opt.selected = true;
      select.appendChild(opt);
    });
  }

  function renderSolution(run) {
    var strip = $("strip");
    while (strip.firstChild) strip.removeChild(strip.firstChild);
    var sol = run && run.solution;
    if (!sol) {
      $("next-move").textContent = "\u2026";
      $("next-words").textContent = run && run.phase === "solving" ? "thinking..." :
        (run && !run.ended ? "after the scan" : "press Run");
      return;
    }
    var moves = sol.moves, done = sol.done;
    var first = run.ended ? 0 : Math.max(0, done - 4);
    for (var i = first; i < moves.length && i < first + 22; i++) {
      var span = document.createElement("span");
      span.className = "mv" + (i < done ? " done" : "") + (i === done && run.phase === "turning" ? " now" : "");
      span.textContent = moves[i];
      span.setAttribute("data-k", i + 1);
      strip.appendChild(span);
    }
    if (done < moves.length) {
      $("next-move").textContent = moves[done];
      $("next-words").textContent = "move " + (done + 1) + " of " + moves.length + ": " + CubeDraw.moveWords(moves[done]);
    } else {
      $("next-move").textContent = moves.length ? "\u2713" : "-";
      $("next-words").textContent = moves.length ? "all " + moves.length + " moves turned" : "already solved";
    }
  }

  function renderTimers() {
    var run = last && last.run;
    var ids = ["scanning", "solving", "turning"];
    ids.forEach(function (p) {
      var cell = $("t-" + p), row = cell.parentNode;
      if (!run) { cell.textContent = "-"; row.className = ""; return; }
      var secs = run.phases[p];
      var live = !run.ended && run.phase === p;
      if (live) secs = (secs || 0) + (serverNow() - last.now);
      cell.textContent = secs === undefined ? "-" : clock(secs);
      row.className = live ? "active" : "";
    });
    if (!run) { $("t-total").textContent = "-"; $("t-left").textContent = "-"; return; }
    var total = run.ended ? run.ended - run.started : serverNow() - run.started;
    $("t-total").textContent = clock(total);
    var left = run.left_s;
    if (left !== null && left !== undefined && !run.ended) left = Math.max(0, left - (serverNow() - last.now));
    $("t-left").textContent = run.ended ? "0:00" : (left === null || left === undefined ? "-" : "about " + clock(left));
  }

  function renderRuns(runs, total) {
    var body = $("runs").tBodies[0];
    while (body.firstChild) body.removeChild(body.firstChild);
    var shown = runs.slice(-RUNS_SHOWN).reverse();
    shown.forEach(function (r, i) {
      var tr = document.createElement("tr");
      var when = new Date(r.started * 1000);
      var result = r.solved ? "solved" : (r.stopped ? "stopped" : (r.kind === "scan" && !r.error ? "scanned" : "not solved"));
      [total - i, pad(when.getHours()) + ":" + pad(when.getMinutes()), r.size + "x" + r.size,
       result, r.moves === null || r.moves === undefined ? "-" : r.moves, clock(r.wall_seconds)].forEach(function (v) {
        var td = document.createElement("td");
        td.textContent = v;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  function pad(v) { return (v < 10 ? "0" : "") + v; }

  function setButtons(s) {
    var up = s && s.link.state === "up";
    var running = s && s.robot.running;
    var pairing = (s && s.link.pairing) || {};
    var allowed = up && (!pairing.required || pairing.paired);
    $("btn-run").disabled = !allowed || running;
    $("btn-scan").disabled = !allowed || running;
    $("btn-stop").disabled = !allowed || !running;
  }

  // -- commands -----------------------------------------------------------------------
  function send(cmd, body) {
    var options = { method: "POST", headers: { "Content-Type": "application/json" },
                    body: JSON.stringify(body || {}) };
    return fetch("/api/" + cmd, options).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) $("note").textContent = data.error || ("refused (" + response.status + ")");
        return data;
      });
    }).catch(function () { $("note").textContent = "the classroom server did not answer"; });
  }

  function command(cmd) {
    var button = $("btn-" + cmd);
    if (button && button.disabled) return;
    var body = {};
    if (cmd === "run" || cmd === "scan") {
      var size = parseInt($("size").value, 10);
      if (isFinite(size)) body.size = size;
    }
    send(cmd, body);
  }

  function fullscreen() {
    var doc = document.documentElement;
    if (document.fullscreenElement) { document.exitFullscreen(); }
    else if (doc.requestFullscreen) { doc.requestFullscreen().catch(function () {}); }
  }

  ["run", "scan", "stop"].forEach(function (cmd) {
    $("btn-" + cmd).addEventListener("click", function () { command(cmd); });
  });
  $("btn-full").addEventListener("click", fullscreen);
  $("pair").addEventListener("submit", function (e) {
    e.preventDefault();
    send("pair", { code: $("pair-code").value.replace(/\s+/g, "") });
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    var key = e.key.toLowerCase();
    if (key === "r") command("run");
    else if (key === "c") command("scan");
    else if (key === "s" || key === " ") { e.preventDefault(); command("stop"); }
    else if (key === "f") fullscreen();
  });
  setInterval(function () { if (last && streamUp) renderTimers(); }, 250);
  connect();
})();
