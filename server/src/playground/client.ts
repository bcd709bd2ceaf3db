/**
 * The playground's script, served as `playground/app.js`. Plain DOM, no framework and no build
 * step: it is a string so that it ships inside the package and inside the CLI's bundle alike.
 * (It must contain no backtick and no dollar-brace, which would end or splice the template.)
 * Every URL is relative, so the page also works when the app is mounted under a path.
 */
export const CLIENT_SCRIPT = String.raw`"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var ui = {
    agent: $("agent-name"), status: $("status"), threads: $("thread-list"), newThread: $("new-thread"),
    messages: $("messages"), composer: $("composer"), input: $("input"), send: $("send"),
    graph: $("graph-box"), lit: $("lit-label"), turns: $("turns"), detail: $("turn-detail"),
  };
  var state = { graph: null, threadId: null, thread: null, turns: [], running: false, selectedTurn: null };

  function el(tag, props, children) {
    var e = document.createElement(tag);
    if (props) Object.keys(props).forEach(function (k) {
      if (k === "text") e.textContent = props[k];
      else if (k === "class") e.className = props[k];
      else if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), props[k]);
      else e.setAttribute(k, props[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function newId() {
    var b = new Uint8Array(9);
    crypto.getRandomValues(b);
    return Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
  }
  var enc = encodeURIComponent;
  function short(value, n) {
    var s = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value === undefined ? null : value);
    return s.length > n ? s.slice(0, n - 1) + "\u2026" : s;
  }
  function status(text, isError) {
    ui.status.textContent = text || "";
    ui.status.className = isError ? "error" : "";
  }

  // A server started with a token wants it on every API request: asked once, kept for the tab.
  function withToken(headers) {
    var token = sessionStorage.getItem("autograms-token");
    if (token) headers.authorization = "Bearer " + token;
    return headers;
  }
  async function request(path, init) {
    for (;;) {
      var res = await fetch(path, Object.assign({}, init, { headers: withToken(Object.assign({}, init && init.headers)) }));
      if (res.status !== 401) return res;
      var token = prompt("This server needs its token (autograms serve --token):");
      if (!token) return res;
      sessionStorage.setItem("autograms-token", token.trim());
    }
  }

  // Every API call: JSON in and out, a refusal shown with its code and message.
  async function api(method, path, body) {
    var res = await request(path, {
      method: method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 204) return null;
    var data = await res.json().catch(function () { return null; });
    if (!res.ok) {
      var err = (data && data.error) || { code: "http_" + res.status, message: res.statusText };
      var e = new Error(err.code + ": " + err.message);
      e.status = res.status;
      throw e;
    }
    return data;
  }

  // ---- the graph: the node being run is lit, the nodes the run went through are marked

  function nodeEls(name) {
    return ui.graph.querySelectorAll('[data-node="' + CSS.escape(name) + '"]');
  }
  function clearMarks() {
    ui.graph.querySelectorAll(".lit, .passed").forEach(function (n) { n.classList.remove("lit", "passed"); });
    ui.lit.textContent = "";
  }
  function light(name) {
    ui.graph.querySelectorAll(".lit").forEach(function (n) { n.classList.remove("lit"); n.classList.add("passed"); });
    var found = nodeEls(name);
    found.forEach(function (n) { n.classList.add("lit"); n.classList.remove("passed"); });
    ui.lit.textContent = name;
    ui.lit.classList.toggle("idle", !state.running);
    if (found[0] && found[0].scrollIntoView) found[0].scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  function showPath(trace) {
    clearMarks();
    var last = null;
    (trace || []).forEach(function (step) {
      var name = typeof step === "string" ? step : step.node;
      nodeEls(name).forEach(function (n) { n.classList.add("passed"); });
      last = name;
    });
    if (last) light(last);
  }
  async function drawGraph() {
    var res = await request("playground/graph.svg");
    if (res.ok) {
      ui.graph.innerHTML = await res.text();
      ui.graph.querySelectorAll("a").forEach(function (a) { a.setAttribute("target", "_blank"); });
      return;
    }
    // Without a picture (the server was given no drawing function): the nodes as a list.
    var list = el("ul", { class: "node-list" });
    state.graph.nodes.forEach(function (n) {
      list.appendChild(el("li", { "data-node": n.name }, [el("code", { text: n.name }), el("span", { text: " " + n.action })]));
    });
    ui.graph.replaceChildren(list);
  }
  var scale = 1;
  function zoom(by) {
    var svg = ui.graph.querySelector("svg");
    if (!svg) return;
    if (!svg.dataset.w) { svg.dataset.w = svg.getAttribute("width"); svg.dataset.h = svg.getAttribute("height"); }
    scale = Math.min(3, Math.max(0.25, scale * by));
    svg.setAttribute("width", String(Number(svg.dataset.w) * scale));
    svg.setAttribute("height", String(Number(svg.dataset.h) * scale));
  }

  // ---- threads

  async function loadThreads() {
    var data = await api("GET", "api/threads");
    var threads = data.threads.slice().sort(function (a, b) { return b.updatedAt - a.updatedAt; });
    ui.threads.replaceChildren.apply(ui.threads, threads.map(function (t) {
      var meta = t.version + " turn" + (t.version === 1 ? "" : "s") + (t.done ? " \u00b7 ended" : "")
        + (t.forkedFrom ? " \u00b7 fork of " + t.forkedFrom.id.slice(0, 8) + " at turn " + t.forkedFrom.turn : "");
      return el("li", { "data-thread": t.id, class: t.id === state.threadId ? "active" : "" }, [
        el("button", { class: "open", title: t.id, onclick: function () { selectThread(t.id); } }, [
          el("span", { class: "id", text: t.id }), el("span", { class: "meta", text: meta }),
        ]),
        el("button", { class: "delete", title: "Delete this thread", "aria-label": "delete " + t.id, text: "\u00d7", onclick: function () { removeThread(t.id); } }),
      ]);
    }));
  }
  function markActive() {
    ui.threads.querySelectorAll("li").forEach(function (li) { li.classList.toggle("active", li.getAttribute("data-thread") === state.threadId); });
  }
  async function selectThread(id) {
    if (state.running) return;
    state.threadId = id;
    history.replaceState(null, "", "#thread=" + enc(id));
    markActive();
    var data;
    try {
      data = await api("GET", "api/threads/" + enc(id));
    } catch (e) {
      if (e.status === 404) {
        state.threadId = null;
        history.replaceState(null, "", "#");
        renderThread(null, []);
        status("thread " + id + " does not exist (any more)", true);
        return;
      }
      throw e;
    }
    renderThread(data.thread, data.turns);
    var last = data.turns[data.turns.length - 1];
    if (last) showPath(last.trace); else clearMarks();
    if (data.thread.running) await follow(null, { user: undefined, resume: true });
  }
  async function removeThread(id) {
    if (!confirm("Delete thread " + id + " and its whole history?")) return;
    await api("DELETE", "api/threads/" + enc(id));
    if (state.threadId === id) {
      state.threadId = null;
      history.replaceState(null, "", "#");
      renderThread(null, []);
    }
    await loadThreads();
  }

  // ---- the chat

  function bubble(who, text, extra) {
    var b = el("div", { class: "msg " + who + (extra ? " " + extra : "") }, [el("div", { class: "text", text: text })]);
    ui.messages.appendChild(b);
    ui.messages.scrollTop = ui.messages.scrollHeight;
    return b;
  }
  function renderThread(thread, turns) {
    state.thread = thread;
    state.turns = turns;
    state.selectedTurn = null;
    ui.messages.replaceChildren();
    turns.forEach(function (t) {
      if (t.user !== null) bubble("user", t.user);
      if (t.status === "interrupted") bubble("agent", "(interrupted: no reply)", "note");
      else if (t.reply !== null) bubble("agent", t.reply);
    });
    if (thread && thread.done) bubble("agent", "The conversation has ended.", "note");
    if (!thread) ui.messages.appendChild(el("p", { class: "empty", text: "Choose a thread, or start a new one: the agent speaks first." }));
    renderTimeline();
    ui.detail.replaceChildren(el("p", { class: "empty", text: turns.length ? "Click a turn to see the memory as it was after it, and fork from there." : "" }));
    updateComposer();
  }
  function updateComposer() {
    var ended = state.thread && state.thread.done;
    ui.input.disabled = ui.send.disabled = state.running || !state.threadId || !!ended;
    ui.input.placeholder = ended ? "The conversation has ended" : state.threadId ? "Message (Enter to send, Shift+Enter for a new line)" : "Start a new thread first";
  }

  // A run's events (run-events.ts) as they stream: tokens into the reply, steps onto the graph.
  function handle(e, view) {
    switch (e.type) {
      case "run-start":
        status("turn " + e.turn + " running\u2026");
        if (view.resume && e.user !== null && e.user !== undefined && !view.shownUser) { view.shownUser = true; bubble("user", e.user); }
        if (!view.reply) view.reply = bubble("agent", "", "streaming");
        clearMarks();
        return false;
      case "step":
        light(e.event.node);
        return false;
      case "text-delta":
        if (!view.reply) view.reply = bubble("agent", "", "streaming");
        view.reply.firstChild.textContent += e.delta;
        ui.messages.scrollTop = ui.messages.scrollHeight;
        if (ui.lit.textContent !== e.node) light(e.node);
        return false;
      case "text-reset":
        if (view.reply) view.reply.firstChild.textContent = "";
        return false;
      case "run-finish":
        if (view.reply) {
          view.reply.classList.remove("streaming");
          if (e.reply === null) { view.reply.firstChild.textContent = "(no reply: the conversation ended)"; view.reply.classList.add("note"); }
          else view.reply.firstChild.textContent = e.reply;
        }
        status("turn " + e.turn + " done" + (e.done ? ": the conversation has ended" : ""));
        return true;
      case "run-error":
        if (view.reply) { view.reply.classList.remove("streaming"); view.reply.classList.add("error"); view.reply.firstChild.textContent = e.code + ": " + e.message; }
        status(e.code + ": " + e.message, true);
        return true;
    }
    return false;
  }

  // Server-sent events from a fetch response (EventSource cannot POST).
  async function readEvents(res, onEvent) {
    var reader = res.body.getReader();
    var decoder = new TextDecoder();
    var buf = "";
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) return;
      buf = (buf + decoder.decode(chunk.value, { stream: true })).replace(/\r\n?/g, "\n");
      var end;
      while ((end = buf.indexOf("\n\n")) >= 0) {
        var block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        var id = null, data = [];
        block.split("\n").forEach(function (line) {
          if (line.slice(0, 3) === "id:") id = line.slice(3).trim();
          else if (line.slice(0, 5) === "data:") data.push(line.slice(5).replace(/^ /, ""));
        });
        if (!data.length) continue;
        // The data is a numbered event ({ seq, event }) or the event itself.
        var parsed = JSON.parse(data.join("\n"));
        if (parsed.event && parsed.seq !== undefined) { id = id || String(parsed.seq); parsed = parsed.event; }
        if (onEvent(id, parsed)) { reader.cancel().catch(function () {}); return; }
      }
    }
  }

  /** Follows a run to its end: from res, then (when the stream breaks, or to join a run already going) from the thread's latest run. */
  async function follow(res, view) {
    state.running = true;
    updateComposer();
    var seq = 0, finished = false;
    try {
      for (var attempt = 0; attempt < 5 && !finished; attempt++) {
        if (!res) {
          res = await request("api/threads/" + enc(state.threadId) + "/runs/latest/stream", { headers: { "Last-Event-ID": String(seq) } });
          if (res.status !== 200) break;
        }
        try {
          await readEvents(res, function (id, e) {
            if (id) seq = Number(id);
            finished = handle(e, view);
            return finished;
          });
        } catch (err) {
          status("the stream broke (" + err.message + "); resuming\u2026", true);
        }
        res = null;
      }
    } finally {
      state.running = false;
      ui.lit.classList.add("idle");
      updateComposer();
    }
    var id = state.threadId;
    await loadThreads();
    if (id === state.threadId) {
      // A new thread whose opening turn failed was never made.
      var data = await api("GET", "api/threads/" + enc(id)).catch(function (e) { if (e.status === 404) return null; throw e; });
      if (!data) return;
      state.thread = data.thread;
      state.turns = data.turns;
      renderTimeline();
      updateComposer();
    }
  }

  async function run(message) {
    var view = { reply: null };
    if (message !== null) bubble("user", message);
    view.reply = bubble("agent", "", "streaming");
    var res = await request("api/threads/" + enc(state.threadId) + "/runs", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ message: message, messageId: newId() }),
    });
    if (!res.ok) {
      var data = await res.json().catch(function () { return null; });
      var err = (data && data.error) || { code: "http_" + res.status, message: res.statusText };
      view.reply.classList.remove("streaming");
      view.reply.classList.add("error");
      view.reply.firstChild.textContent = err.code + ": " + err.message;
      status(err.code + ": " + err.message, true);
      return;
    }
    await follow(res, view);
  }

  // ---- the turn timeline: memory as it was, the variables each turn changed, fork

  function renderTimeline() {
    ui.turns.replaceChildren.apply(ui.turns, state.turns.map(function (t) {
      var label = t.user === null ? "(opening)" : t.user;
      var changed = (t.changes || []).length;
      return el("li", { "data-turn": String(t.seq), class: (t.seq === state.selectedTurn ? "selected " : "") + (t.status === "interrupted" ? "interrupted" : "") }, [
        el("button", { onclick: function () { selectTurn(t.seq); } }, [
          el("span", { class: "seq", text: String(t.seq) }),
          el("span", { class: "said", text: label }),
          el("span", { class: "meta", text: changed ? changed + " variable" + (changed === 1 ? "" : "s") : "" }),
        ]),
      ]);
    }));
  }
  function changesTable(changes) {
    if (!changes || !changes.length) return el("p", { class: "empty", text: "This turn changed no variable." });
    return el("table", { class: "changes" }, [
      el("thead", null, [el("tr", null, [el("th", { text: "variable" }), el("th", { text: "before" }), el("th", { text: "after" }), el("th", { text: "at node" })])]),
      el("tbody", null, changes.map(function (c) {
        var added = !("before" in c), removed = !("after" in c);
        return el("tr", { class: added ? "added" : removed ? "removed" : "changed" }, [
          el("td", null, [el("code", { text: c.name })]),
          el("td", { class: "before", text: added ? "(new)" : short(c.before, 120) }),
          el("td", { class: "after", text: removed ? "(gone)" : short(c.after, 120) }),
          el("td", { class: "node" }, [el("code", { text: c.node || "" })]),
        ]);
      })),
    ]);
  }
  function memoryView(memory) {
    if (!memory) return el("p", { class: "empty", text: "No memory yet." });
    var frames = memory.stack.map(function (f, i) {
      var names = Object.keys(f.vars).filter(function (n) { return n.charAt(0) !== "_"; });
      return el("div", { class: "frame" }, [
        el("h4", { text: (i === 0 ? "main (globals)" : f.scope + " " + f.function) + (f.node ? " \u00b7 at " + f.node : "") }),
        names.length ? el("dl", null, names.reduce(function (acc, n) {
          acc.push(el("dt", null, [el("code", { text: n })]), el("dd", { text: short(f.vars[n], 300) }));
          return acc;
        }, [])) : el("p", { class: "empty", text: "no variables" }),
      ]);
    });
    return el("div", { class: "memory" }, frames.concat([
      el("details", null, [el("summary", { text: "The whole memory (JSON)" }), el("pre", { text: JSON.stringify(memory, null, 2) })]),
    ]));
  }
  async function selectTurn(seq) {
    state.selectedTurn = seq;
    renderTimeline();
    var turn = state.turns.find(function (t) { return t.seq === seq; });
    showPath(turn && turn.trace);
    var data = await api("GET", "api/threads/" + enc(state.threadId) + "/memory?turn=" + seq);
    ui.detail.replaceChildren(
      el("div", { class: "bar" }, [
        el("h3", { text: "After turn " + seq }),
        el("button", { id: "fork", title: "A new thread holding turns 1 to " + seq + " of this one", text: "Fork from turn " + seq, onclick: function () { fork(seq); } }),
      ]),
      el("h4", { text: "Variables this turn changed" }),
      changesTable(turn && turn.changes),
      el("h4", { text: "Memory after this turn" }),
      memoryView(data.memory),
    );
  }
  async function fork(seq) {
    var data = await api("POST", "api/threads/" + enc(state.threadId) + "/fork", { turn: seq });
    await loadThreads();
    await selectThread(data.thread.id);
    status("forked at turn " + seq + " into " + data.thread.id);
  }

  // ---- wiring

  function guard(fn) {
    return function () {
      return Promise.resolve(fn.apply(null, arguments)).catch(function (e) { status(e.message, true); });
    };
  }
  selectThread = guard(selectThread);
  removeThread = guard(removeThread);
  selectTurn = guard(selectTurn);
  fork = guard(fork);

  ui.composer.addEventListener("submit", guard(async function (ev) {
    ev.preventDefault();
    var text = ui.input.value;
    if (!text.trim() || state.running || !state.threadId) return;
    ui.input.value = "";
    await run(text);
  }));
  ui.input.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) { ev.preventDefault(); ui.composer.requestSubmit(); }
  });
  ui.newThread.addEventListener("click", guard(async function () {
    if (state.running) return;
    state.threadId = "t-" + newId();
    history.replaceState(null, "", "#thread=" + enc(state.threadId));
    renderThread(null, []);
    ui.messages.replaceChildren();
    markActive();
    await run(null);
  }));
  $("zoom-in").addEventListener("click", function () { zoom(1.25); });
  $("zoom-out").addEventListener("click", function () { zoom(0.8); });

  guard(async function () {
    var agent = await api("GET", "api/agent");
    state.graph = agent.graph;
    ui.agent.textContent = agent.name;
    document.title = agent.name + " \u00b7 autograms playground";
    await drawGraph();
    await loadThreads();
    var m = /^#thread=(.+)$/.exec(location.hash);
    if (m) await selectThread(decodeURIComponent(m[1]));
    else renderThread(null, []);
    document.body.setAttribute("data-ready", "true");
  })();
})();
`;
