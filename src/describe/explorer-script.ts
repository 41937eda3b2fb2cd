/**
 * The explorer page's script, served as `{prefix}/_explorer/explorer.js` (a file, so the page's
 * Content-Security-Policy allows no inline script). Plain browser JavaScript, held as text so that
 * every runtime serves it without a file system. It:
 *
 * - draws the class diagram with Mermaid (`securityLevel: "strict"`) and the API reference with
 *   Swagger UI (`validatorUrl: null`: else it sends the document to validator.swagger.io), when the
 *   page loaded them;
 * - runs the console's JDOQL or JPQL through `{prefix}/jdoql` and `{prefix}/jpql`, as any client
 *   would. A JDOQL query without its own RANGE (nor UNIQUE, nor aggregates) is paged by the server:
 *   the console appends `RANGE from, to` (one row more than a page, to know whether a next page
 *   exists) on a line of its own, so positions in the text stay as written. Any other answer is
 *   read whole (the server bounds it by `answerBytes`) and paged in the table.
 * - marks a 400's `position` in the text: selects it in the textarea and shows the line with a caret
 *   under the column. An error the appended RANGE might have moved is asked again for the text as
 *   written, so the position is the user's.
 */
export const EXPLORER_SCRIPT = String.raw`"use strict";
(function () {
  var body = document.body;
  var prefix = body.dataset.prefix || "";
  var byId = function (id) { return document.getElementById(id); };
  var view = { server: false, from: 0, rows: [], all: [], more: false, language: "jdoql", text: "" };

  function token() {
    var field = byId("token");
    return field && field.value.trim() ? field.value.trim() : "";
  }

  function drawDiagram() {
    if (!window.mermaid) return;
    window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: "neutral", class: { hideEmptyMembersBox: true } });
    window.mermaid.run({ nodes: [byId("diagram-text")] }).then(function () {
      byId("diagram").dataset.drawn = "yes";
    }, function (error) {
      byId("diagram").dataset.drawn = "failed";
      var note = document.createElement("p");
      note.className = "note";
      note.textContent = "Mermaid could not draw the model: " + (error && error.message ? error.message : error);
      byId("diagram").prepend(note);
    });
  }

  function drawReference() {
    if (!window.SwaggerUIBundle) return;
    window.SwaggerUIBundle({
      url: prefix + "/openapi.json",
      dom_id: "#swagger",
      validatorUrl: null,
      deepLinking: false,
      presets: [window.SwaggerUIBundle.presets.apis],
      layout: "BaseLayout",
      requestInterceptor: function (request) {
        if (token() && !request.headers.Authorization) request.headers.Authorization = "Bearer " + token();
        return request;
      },
    });
  }

  function pageSize() {
    var n = parseInt(byId("page-size").value, 10);
    return n >= 1 && n <= 1000 ? n : 20;
  }

  /** Whether the server pages this query: a JDOQL candidate or projection query without RANGE, UNIQUE or aggregates. */
  function serverPaged(language, text) {
    return language === "jdoql" && /^\s*select\b/i.test(text) && !/\b(range|unique)\b/i.test(text) && !/\b(count|sum|avg|min|max)\s*\(/i.test(text);
  }

  async function ask(language, text) {
    var headers = { accept: "application/json" };
    if (token()) headers.authorization = "Bearer " + token();
    var response = await fetch(prefix + "/" + language + "?query=" + encodeURIComponent(text), { headers: headers });
    var answer = null;
    try { answer = await response.json(); } catch (e) { answer = null; }
    return { response: response, answer: answer };
  }

  async function run(from) {
    var language = byId("language").value;
    var text = byId("query").value;
    var size = pageSize();
    var server = serverPaged(language, text);
    hideError();
    byId("status").textContent = "Running…";
    try {
      var sent = server ? text.replace(/\s+$/, "") + "\nRANGE " + from + ", " + (from + size + 1) : text;
      var got = await ask(language, sent);
      if (!got.response.ok && server && got.response.status === 400) got = await ask(language, text);
      if (!got.response.ok) return showError(got.response, got.answer, text);
      var answer = got.answer;
      view = { server: server, from: from, language: language, text: text, more: false, rows: [], all: [] };
      if (server) {
        view.more = answer.length > size;
        view.rows = answer.slice(0, size);
      } else {
        view.all = Array.isArray(answer) ? answer : [answer];
      }
      render();
    } catch (error) {
      byId("status").textContent = "";
      showText("The request failed: " + (error && error.message ? error.message : error));
    }
  }

  function hideError() {
    var box = byId("error");
    box.hidden = true;
    box.textContent = "";
    delete box.dataset.line;
    delete box.dataset.column;
  }

  function showText(text) {
    var box = byId("error");
    box.textContent = text;
    box.hidden = false;
  }

  function showError(response, problem, text) {
    byId("status").textContent = "";
    clearTable();
    var detail = problem && problem.detail ? problem.detail : response.statusText;
    var out = response.status + " " + (problem && problem.title ? problem.title : "") + ": " + detail;
    var box = byId("error");
    var at = problem && problem.position;
    if (at) {
      var line = text.split("\n")[at.line - 1];
      if (line !== undefined) {
        var number = String(at.line);
        var pad = " ".repeat(number.length);
        out += "\n\n" + number + " | " + line.replace(/\t/g, " ") + "\n" + pad + " | " + " ".repeat(Math.max(0, at.column - 1)) + "^";
      }
      var start = Math.min(Math.max(0, at.offset), text.length);
      var word = /^\w+/.exec(text.slice(start));
      var end = Math.min(text.length, start + (word ? word[0].length : 1));
      var area = byId("query");
      area.focus();
      area.setSelectionRange(start, end);
    }
    if (problem && problem.expected && problem.expected.length) out += "\nexpected: " + problem.expected.join(", ");
    showText(out);
    if (at) {
      box.dataset.line = String(at.line);
      box.dataset.column = String(at.column);
    }
  }

  function cell(value) {
    if (value === null || value === undefined) return "";
    if (typeof value !== "object") return String(value);
    var json = JSON.stringify(value);
    return json.length > 200 ? json.slice(0, 199) + "…" : json;
  }

  function columnsOf(rows) {
    var isRecord = function (r) { return r !== null && typeof r === "object" && !Array.isArray(r); };
    if (rows.length && rows.every(isRecord)) {
      var keys = [];
      rows.forEach(function (r) { Object.keys(r).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); }); });
      return { names: keys, get: function (r, k) { return r[k]; } };
    }
    if (rows.length && rows.every(Array.isArray)) {
      var width = Math.max.apply(null, rows.map(function (r) { return r.length; }));
      var names = [];
      for (var i = 1; i <= width; i++) names.push(String(i));
      return { names: names, get: function (r, k) { return r[Number(k) - 1]; } };
    }
    return { names: ["value"], get: function (r) { return r; } };
  }

  function clearTable() {
    byId("results").replaceChildren();
    byId("pager").hidden = true;
  }

  function render() {
    var size = pageSize();
    var rows = view.server ? view.rows : view.all.slice(view.from, view.from + size);
    var more = view.server ? view.more : view.from + size < view.all.length;
    var table = byId("results");
    var columns = columnsOf(rows);
    var head = document.createElement("thead");
    var tr = document.createElement("tr");
    columns.names.forEach(function (name) {
      var th = document.createElement("th");
      th.textContent = name;
      tr.appendChild(th);
    });
    head.appendChild(tr);
    var tbody = document.createElement("tbody");
    rows.forEach(function (row) {
      var line = document.createElement("tr");
      columns.names.forEach(function (name) {
        var td = document.createElement("td");
        td.textContent = cell(columns.get(row, name));
        line.appendChild(td);
      });
      tbody.appendChild(line);
    });
    table.replaceChildren(head, tbody);
    var first = rows.length ? view.from + 1 : 0;
    var last = view.from + rows.length;
    var total = view.server ? "" : " of " + view.all.length;
    var paging = view.server ? " (paged by the server: RANGE " + view.from + ", " + (view.from + size + 1) + ")" : "";
    byId("status").textContent = rows.length ? "Rows " + first + "–" + last + total + paging : "No rows" + (view.from ? " on this page" : "");
    byId("page").textContent = "page " + (Math.floor(view.from / size) + 1);
    byId("prev").disabled = view.from === 0;
    byId("next").disabled = !more;
    byId("pager").hidden = !(more || view.from > 0);
  }

  function turn(step) {
    var from = Math.max(0, view.from + step * pageSize());
    if (view.server) return run(from);
    view.from = from;
    render();
  }

  byId("query-form").addEventListener("submit", function (event) {
    event.preventDefault();
    run(0);
  });
  byId("query").addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run(0);
    }
  });
  byId("language").addEventListener("change", function () {
    var area = byId("query");
    var examples = { jdoql: body.dataset.jdoql || "", jpql: body.dataset.jpql || "" };
    if (!area.value.trim() || area.value === examples.jdoql || area.value === examples.jpql) area.value = examples[byId("language").value];
    hideError();
  });
  byId("prev").addEventListener("click", function () { turn(-1); });
  byId("next").addEventListener("click", function () { turn(1); });

  drawDiagram();
  drawReference();
})();
`;
