// The games index's filters and sorting (games.html, written by report/html/games.rs). The rows
// are in the page already; this script reads their data from <script id="index-data"> (the
// same JSON `arena view` reads back to relink the page: it is only read here), builds a filter
// bar above the table, and shows the rows that pass, in the order asked, by moving the existing
// <tr> elements: one pass over the rows and one sort. Without
// JavaScript the table is as written. Text from the data goes in with textContent only.
(function () {
  'use strict';
  var block = document.getElementById('index-data');
  var table = document.querySelector('table.games');
  if (!block || !table) return;
  var rows;
  try {
    rows = JSON.parse(block.textContent).page.rows;
  } catch (e) {
    return;
  }
  var body = table.tBodies[0];
  var trs = Array.prototype.slice.call(body.rows);
  if (!rows || rows.length !== trs.length || !rows.length) return;

  function el(tag, attrs, text, parent) {
    var e = document.createElement(tag);
    for (var k in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    }
    if (text !== undefined && text !== null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function distinct(key) {
    var seen = {}, out = [];
    rows.forEach(function (r) {
      var v = key(r);
      if (!Object.prototype.hasOwnProperty.call(seen, v)) { seen[v] = true; out.push(v); }
    });
    return out.sort();
  }
  function select(id, label, options, parent) {
    var wrap = el('label', { 'for': id }, null, parent);
    el('span', null, label, wrap);
    var s = el('select', { id: id }, null, wrap);
    options.forEach(function (o) { el('option', { value: o[0] }, o[1], s); });
    return s;
  }

  // ---- the filter bar ----
  var bar = el('form', { 'class': 'filters', id: 'filters' });
  table.parentNode.parentNode.insertBefore(bar, table.parentNode);
  bar.addEventListener('submit', function (e) { e.preventDefault(); });
  var engines = distinct(function (r) { return r.red; })
    .concat(distinct(function (r) { return r.black; }))
    .filter(function (v, i, all) { return all.indexOf(v) === i; }).sort();
  var engine = select('f-engine', 'Engine', [['', 'any']].concat(engines.map(function (e) {
    return [e, e];
  })), bar);
  var colour = select('f-colour', 'playing', [['', 'either colour'], ['red', 'Red'],
    ['black', 'Black']], bar);
  var outcome = select('f-outcome', 'its result', [['', 'any'], ['won', 'won'],
    ['lost', 'lost'], ['drawn', 'drawn']], bar);
  var result = select('f-result', 'Result', [['', 'any']].concat(distinct(function (r) {
    return r.result;
  }).map(function (v) { return [v, v]; })), bar);
  var termination = select('f-termination', 'Termination', [['', 'any']].concat(
    distinct(function (r) { return r.termination; }).map(function (v) { return [v, v]; })), bar);
  var failedOnly = el('label', { 'for': 'f-failed' }, null, bar);
  var failed = el('input', { type: 'checkbox', id: 'f-failed' }, null, failedOnly);
  el('span', null, 'engine failures and time losses only', failedOnly);
  var reset = el('button', { type: 'button', id: 'f-reset' }, 'Show all', bar);
  var status = el('p', { 'class': 'sub', id: 'f-status', 'aria-live': 'polite' });
  bar.parentNode.insertBefore(status, bar.nextSibling);

  // The engine's result in a row, from its side: 'won', 'lost', 'drawn', or '' if it did not play.
  function outcomeOf(r, name, side) {
    var red = r.red === name && side !== 'black';
    var black = r.black === name && side !== 'red';
    if (!red && !black) return '';
    if (r.result === '1/2-1/2') return 'drawn';
    var redWon = r.result === '1-0';
    // Playing itself, it is read as Red.
    return (red ? redWon : !redWon) ? 'won' : 'lost';
  }
  function passes(r) {
    var name = engine.value;
    if (name) {
      var o = outcomeOf(r, name, colour.value);
      if (!o || (outcome.value && o !== outcome.value)) return false;
    } else if (colour.value || outcome.value) {
      // A colour or a result of "the engine" needs an engine: read as that colour's result.
      if (outcome.value) {
        var side = colour.value || 'red';
        var won = side === 'red' ? '1-0' : '0-1';
        var want = outcome.value === 'won' ? won : outcome.value === 'drawn' ? '1/2-1/2' :
          (won === '1-0' ? '0-1' : '1-0');
        if (r.result !== want) return false;
      }
    }
    if (result.value && r.result !== result.value) return false;
    if (termination.value && r.termination !== termination.value) return false;
    if (failed.checked && !r.failure) return false;
    return true;
  }

  // ---- sorting: a click on a column's head; again for the other direction ----
  var KEYS = [
    function (r) { return r.number; },
    function (r) { return r.red; },
    function (r) { return r.black; },
    function (r) { return r.result; },
    function (r) { return r.termination; },
    function (r) { return r.plies; },
    function (r) { return r.reveals * 1000 + r.captures; }
  ];
  var sortBy = 0, ascending = true;
  // Whether the rows are in another order or number than as written.
  var moved = false;
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  heads.forEach(function (th, k) {
    if (!KEYS[k]) return;
    th.className += ' sortable';
    th.setAttribute('tabindex', '0');
    th.setAttribute('title', (th.getAttribute('title') ? th.getAttribute('title') + '. ' : '') +
      'Click to sort');
    function sort() {
      if (sortBy === k) ascending = !ascending; else { sortBy = k; ascending = true; }
      show();
    }
    th.addEventListener('click', sort);
    th.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); }
    });
  });

  function show() {
    var key = KEYS[sortBy];
    var picked = [];
    for (var i = 0; i < rows.length; i++) {
      if (passes(rows[i])) picked.push(i);
    }
    var keys = picked.map(function (i) { return key(rows[i]); });
    var order = picked.map(function (_, j) { return j; });
    order.sort(function (a, b) {
      var x = keys[a], y = keys[b];
      var c = x < y ? -1 : x > y ? 1 : rows[picked[a]].number - rows[picked[b]].number;
      return ascending ? c : -c;
    });
    // The rows as written are every row by number: nothing to move until a filter or a sort.
    var written = picked.length === rows.length && sortBy === 0 && ascending;
    if (moved || !written) {
      // Rows moved out of a table in the page cost a style pass over their siblings each
      // (quadratic in the rows): the body leaves the table first and comes back whole.
      var next = body.nextSibling;
      table.removeChild(body);
      var fragment = document.createDocumentFragment();
      order.forEach(function (j) { fragment.appendChild(trs[picked[j]]); });
      while (body.firstChild) body.removeChild(body.firstChild);
      body.appendChild(fragment);
      table.insertBefore(body, next);
      moved = !written;
    }
    heads.forEach(function (th, k) {
      th.removeAttribute('aria-sort');
      if (k === sortBy) th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
    });
    status.textContent = picked.length === rows.length
      ? 'All ' + rows.length + ' listed games.'
      : picked.length + ' of the ' + rows.length + ' listed games.';
    table.setAttribute('data-shown', String(picked.length));
  }
  [engine, colour, outcome, result, termination, failed].forEach(function (c) {
    c.addEventListener('change', show);
  });
  reset.addEventListener('click', function () {
    [engine, colour, outcome, result, termination].forEach(function (c) { c.value = ''; });
    failed.checked = false;
    sortBy = 0;
    ascending = true;
    show();
  });
  show();
})();
