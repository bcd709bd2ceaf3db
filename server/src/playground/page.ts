/** The playground's page: a shell the script fills in (see client/); it loads nothing but its own two files. */
export const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>autograms playground</title>
<link rel="stylesheet" href="playground/style.css">
<link rel="icon" href="data:,">
</head>
<body data-panel="chat">
<header><h1 id="agent-name">autograms</h1><span class="kind">playground</span><nav id="agents" aria-label="agents" hidden></nav><span id="status" role="status"></span><nav id="pages" aria-label="pages"><button type="button" data-page="studio" aria-current="true">Studio</button><button type="button" data-page="runs" aria-current="false">Runs</button><button type="button" data-page="metrics" aria-current="false">Metrics</button><button type="button" id="experiments-open" data-page="experiments" aria-current="false" title="The stored results of autograms eval">Experiments</button><button type="button" data-page="tools" aria-current="false" title="Run one of the agent's tools from a form">Tools</button></nav><a id="api-docs" href="api/docs" title="The HTTP API: its OpenAPI document as a page">API</a><button id="palette-open" type="button" aria-keyshortcuts="Control+K Meta+K" title="Go to an agent, a thread or a page (Ctrl+K)">Go to\u2026</button><button id="theme" type="button" title="Colour theme: the system's, light or dark">Theme: system</button></header>
<nav id="panels" aria-label="panels">
  <button type="button" data-show="threads">Threads</button><button type="button" data-show="chat">Chat</button><button type="button" data-show="code">Code</button><button type="button" data-show="timeline">Turns</button>
</nav>
<main>
<nav id="threads" aria-label="threads">
  <div class="bar"><h2>Threads</h2><button id="new-thread" type="button">New thread</button></div>
  <input id="thread-search" type="search" placeholder="Search threads" aria-label="search threads">
  <ul id="thread-list"></ul>
</nav>
<section id="chat" aria-label="chat">
  <div class="bar"><h2>Chat</h2><button id="regenerate" type="button" title="Run the last turn again: the new reply takes the old one's place" disabled>Regenerate</button></div>
  <details id="model-settings" class="settings"></details>
  <div id="messages" aria-live="polite"></div>
  <form id="composer"><textarea id="input" rows="2" aria-label="message"></textarea><button id="send" type="submit">Send</button><button id="stop" type="button" title="Stop the reply being written: the turn keeps nothing of it" hidden>Stop</button></form>
</section>
<section id="code" aria-label="code">
  <div class="bar" role="tablist"><button id="source-tab" role="tab" type="button" aria-selected="true" hidden>Source</button><button id="graph-tab" role="tab" type="button" aria-selected="false">Graph</button><select id="file-select" aria-label="file" hidden></select><span id="lit-label"></span><label id="raw-graph-label" title="every node the compiler made, under its own name"><input type="checkbox" id="raw-graph"> raw graph</label><button id="zoom-out" type="button" title="smaller">\u2212</button><button id="zoom-in" type="button" title="larger">+</button></div>
  <div id="node-info" hidden></div>
  <div id="source-box" role="tabpanel" aria-labelledby="source-tab" hidden></div>
  <div id="graph-box" role="tabpanel" aria-labelledby="graph-tab"></div>
</section>
<section id="timeline" aria-label="turns">
  <div class="turns-pane"><div class="bar"><h2>Turns</h2><span id="thread-usage" class="usage"></span></div><ol id="turns" tabindex="0" aria-label="turns: arrow keys move between them"></ol></div>
  <div id="turn-detail"></div>
</section>
</main>
<section id="runs-page" class="page" aria-label="runs">
  <form id="runs-filters" class="bar"><h2>Runs</h2>
    <select id="runs-status" aria-label="status"><option value="">any status</option><option>committed</option><option>failed</option><option>stopped</option><option>abandoned</option><option>running</option></select>
    <select id="runs-since" aria-label="started"><option value="">any time</option><option value="hour">last hour</option><option value="day">last day</option><option value="week">last week</option></select>
    <input id="runs-agent" type="search" placeholder="agent (* for all)" aria-label="agent">
    <input id="runs-error" type="search" placeholder="error text" aria-label="error text">
    <button id="runs-apply" type="submit">Filter</button>
  </form>
  <div class="runs-body"><div class="runs-pane"><ol id="run-list" aria-label="runs"></ol><button id="runs-more" type="button" hidden>More runs</button></div><div id="run-detail"><p class="empty">Choose a run to see its spans and timeline.</p></div></div>
</section>
<section id="metrics-page" class="page" aria-label="metrics">
  <div class="bar"><h2>Metrics</h2><select id="metrics-range" aria-label="range"><option value="hour">last hour</option><option value="day" selected>last day</option><option value="week">last week</option></select><label class="check"><input id="metrics-all" type="checkbox"> every agent</label></div>
  <div id="metrics-body"></div>
</section>
<section id="tools-page" class="page" aria-label="tools">
  <div class="bar"><h2>Tools</h2><span class="where">run here, in the server's thread, outside any turn</span></div>
  <div class="tools-body"><div class="tools-pane"><ul id="tool-list" aria-label="tools"></ul></div><div id="tool-detail"><p class="empty">Choose a tool to run it.</p></div></div>
</section>
<section id="experiments" aria-label="experiments">
  <div class="bar"><h2>Experiments</h2><button id="experiments-close" type="button">Back to the studio</button></div>
  <div class="experiments-pane"><ul id="experiment-list"></ul><div id="experiment-detail"></div></div>
</section>
<div id="palette" role="dialog" aria-modal="true" aria-label="Go to an agent, a thread or a page" hidden><div class="box">
  <input id="palette-input" role="combobox" aria-expanded="false" aria-controls="palette-list" aria-autocomplete="list" aria-label="Go to an agent, a thread or a page" autocomplete="off" spellcheck="false">
  <ul id="palette-list" role="listbox" aria-label="matches"></ul><p id="palette-empty" hidden>Nothing matches.</p>
</div></div>
<script src="playground/app.js"></script>
</body>
</html>
`;
