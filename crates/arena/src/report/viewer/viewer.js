// The game viewer: draws the board, the move list, the panel and the evaluation chart from the
// JSON in <script id="game"> (written by crates/arena/src/report/viewer/mod.rs, which computes
// every board; this script only draws). Text from the data goes in with textContent only.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('game').textContent);
  var N = D.plies.length;
  var SVG = 'http://www.w3.org/2000/svg';
  // Board geometry: the step between lines and the margin around them, in SVG units.
  var S = 52, M = 60;
  var BW = 2 * M + 8 * S, BH = 2 * M + 9 * S;
  var CHARS = {
    K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
    k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒'
  };
  var NAMES = {
    k: 'king', a: 'advisor', b: 'elephant', n: 'horse', r: 'chariot', c: 'cannon', p: 'pawn'
  };
  var cur = 0;
  var trueView = false;

  function svg(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    }
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(tag, cls, text, parent) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function title(parent, text) {
    svg('title', {}, parent).textContent = text;
  }
  function isRed(ch) { return ch === ch.toUpperCase(); }
  // A noun with its indefinite article: "an elephant", "a horse".
  function withArticle(noun) { return (/^[aeiou]/i.test(noun) ? 'an ' : 'a ') + noun; }
  function pieceName(ch) {
    return (isRed(ch) ? 'red ' : 'black ') + NAMES[ch.toLowerCase()];
  }
  function px(file) { return M + file * S; }
  function py(rank) { return M + (9 - rank) * S; }
  function at(square) {
    return [px(square.charCodeAt(0) - 97), py(square.charCodeAt(1) - 48)];
  }
  function squareName(i) {
    return String.fromCharCode(97 + (i % 9)) + String(Math.floor(i / 9));
  }
  function pct(v) { return (v * 100).toFixed(1) + '%'; }
  function signed(v, d) { return (v >= 0 ? '+' : '\u2212') + Math.abs(v).toFixed(d); }

  // ---- the board ----
  var board = document.getElementById('board');
  board.setAttribute('viewBox', '0 0 ' + BW + ' ' + BH);
  var defs = svg('defs', {}, board);
  var hatch = svg('pattern', {
    id: 'back', width: 7, height: 7, patternUnits: 'userSpaceOnUse',
    patternTransform: 'rotate(45)'
  }, defs);
  svg('rect', { width: 7, height: 7, fill: '#2e4057' }, hatch);
  svg('line', { x1: 0, y1: 0, x2: 0, y2: 7, stroke: '#48648a', 'stroke-width': 3 }, hatch);
  svg('rect', { x: 0, y: 0, width: BW, height: BH, rx: 8, 'class': 'wood' }, board);
  var grid = svg('g', { 'class': 'grid' }, board);
  svg('rect', {
    x: px(0) - 7, y: py(9) - 7, width: 8 * S + 14, height: 9 * S + 14, 'class': 'frame'
  }, grid);
  for (var r = 0; r <= 9; r++) {
    svg('line', { x1: px(0), y1: py(r), x2: px(8), y2: py(r) }, grid);
  }
  for (var f = 0; f <= 8; f++) {
    if (f === 0 || f === 8) {
      svg('line', { x1: px(f), y1: py(0), x2: px(f), y2: py(9) }, grid);
    } else {
      // The river cuts the inner files.
      svg('line', { x1: px(f), y1: py(0), x2: px(f), y2: py(4) }, grid);
      svg('line', { x1: px(f), y1: py(5), x2: px(f), y2: py(9) }, grid);
    }
  }
  // The palaces' diagonals.
  [[3, 0, 5, 2], [5, 0, 3, 2], [3, 7, 5, 9], [5, 7, 3, 9]].forEach(function (d) {
    svg('line', { x1: px(d[0]), y1: py(d[1]), x2: px(d[2]), y2: py(d[3]) }, grid);
  });
  // The cannons' and pawns' start points, marked with corners as on a printed board.
  var points = [[1, 2], [7, 2], [1, 7], [7, 7]];
  [0, 2, 4, 6, 8].forEach(function (file) { points.push([file, 3], [file, 6]); });
  points.forEach(function (p) {
    var x = px(p[0]), y = py(p[1]);
    [-1, 1].forEach(function (dx) {
      if (p[0] + dx < 0 || p[0] + dx > 8) return;
      [-1, 1].forEach(function (dy) {
        svg('polyline', {
          points: (x + dx * 4) + ',' + (y + dy * 11) + ' ' + (x + dx * 4) + ',' + (y + dy * 4) +
            ' ' + (x + dx * 11) + ',' + (y + dy * 4),
          'class': 'point'
        }, grid);
      });
    });
  });
  var riverY = (py(4) + py(5)) / 2;
  svg('text', { x: (px(1) + px(3)) / 2, y: riverY, 'class': 'river' }, board).textContent = '楚 河';
  svg('text', { x: (px(5) + px(7)) / 2, y: riverY, 'class': 'river' }, board).textContent = '漢 界';
  for (var i = 0; i < 9; i++) {
    var fl = String.fromCharCode(97 + i);
    svg('text', { x: px(i), y: py(0) + 42, 'class': 'label' }, board).textContent = fl;
    svg('text', { x: px(i), y: py(9) - 42, 'class': 'label' }, board).textContent = fl;
  }
  for (var j = 0; j <= 9; j++) {
    svg('text', { x: px(0) - 42, y: py(j), 'class': 'label' }, board).textContent = String(j);
    svg('text', { x: px(8) + 42, y: py(j), 'class': 'label' }, board).textContent = String(j);
  }
  var marks = svg('g', { id: 'marks' }, board);
  var pieces = svg('g', { id: 'pieces' }, board);
  var overlays = svg('g', { id: 'overlays' }, board);

  function drawPiece(square, ch, identity) {
    var xy = at(square);
    var hidden = ch === 'X' || ch === 'x';
    var side = isRed(ch) ? 'red' : 'black';
    var g = svg('g', {
      'class': 'piece ' + side + (hidden ? ' hidden' : ''),
      'data-square': square,
      'data-piece': ch,
      transform: 'translate(' + xy[0] + ',' + xy[1] + ')'
    }, pieces);
    if (hidden) {
      svg('circle', { r: 23, 'class': 'back', fill: 'url(#back)' }, g);
      svg('circle', { r: 17, 'class': 'back-ring' }, g);
      if (identity) {
        g.setAttribute('data-true', identity);
        svg('text', { 'class': 'true-id', y: 1 }, g).textContent = CHARS[identity];
        title(g, square + ': hidden ' + side + ' piece, really ' + withArticle(NAMES[identity.toLowerCase()]));
      } else {
        title(g, square + ': hidden ' + side + ' piece');
      }
    } else {
      svg('circle', { r: 23, 'class': 'face' }, g);
      svg('circle', { r: 19, 'class': 'rim' }, g);
      svg('text', { 'class': 'glyph', y: 1 }, g).textContent = CHARS[ch] || '?';
      title(g, square + ': ' + pieceName(ch));
    }
  }

  function drawBoard() {
    while (marks.firstChild) marks.removeChild(marks.firstChild);
    while (pieces.firstChild) pieces.removeChild(pieces.firstChild);
    while (overlays.firstChild) overlays.removeChild(overlays.firstChild);
    var b = D.boards[cur];
    var ids = D.ids[cur] || '';
    var h = 0;
    var showTruth = trueView && D.truth;
    for (var i = 0; i < 90; i++) {
      var ch = b.charAt(i);
      if (ch === '.') continue;
      var identity = null;
      if (ch === 'X' || ch === 'x') {
        identity = showTruth ? ids.charAt(h) || null : null;
        h++;
      }
      drawPiece(squareName(i), ch, identity);
    }
    board.setAttribute('data-ply', String(cur));
    board.setAttribute('data-view', showTruth ? 'true' : 'public');
    var p = cur > 0 ? D.plies[cur - 1] : null;
    board.removeAttribute('data-last');
    board.removeAttribute('data-reveal');
    board.removeAttribute('data-capture');
    if (!p) return;
    board.setAttribute('data-last', p.from + p.to);
    var from = at(p.from), to = at(p.to);
    if (p.from !== p.to) {
      svg('circle', { cx: from[0], cy: from[1], r: 9, 'class': 'last-from' }, marks);
    }
    var c = 26, e = 9;
    [[-1, -1], [1, -1], [-1, 1], [1, 1]].forEach(function (d) {
      var x = to[0] + d[0] * c, y = to[1] + d[1] * c;
      svg('polyline', {
        points: x + ',' + (y - d[1] * e) + ' ' + x + ',' + y + ' ' + (x - d[0] * e) + ',' + y,
        'class': 'last-to'
      }, marks);
    });
    if (p.reveal) {
      board.setAttribute('data-reveal', p.to);
      var ring = svg('circle', { cx: to[0], cy: to[1], r: 28, 'class': 'reveal-ring' }, overlays);
      title(ring, 'revealed: a ' + pieceName(p.reveal));
    }
    if (p.captured) {
      board.setAttribute('data-capture', p.to + (p.captured_hidden ? ':hidden' : ''));
      var badge = svg('g', {
        'class': 'capture' + (p.captured_hidden ? ' hidden' : ''),
        transform: 'translate(' + (to[0] + 21) + ',' + (to[1] - 21) + ')'
      }, overlays);
      var known = p.captured !== 'X' && p.captured !== 'x';
      svg('circle', p.captured_hidden ? { r: 11, fill: 'url(#back)' } : { r: 11 }, badge);
      svg('text', { y: 1, 'class': isRed(p.captured) ? 'red' : 'black' }, badge).textContent =
        known ? CHARS[p.captured] : '?';
      title(badge, 'captured ' + (p.captured_hidden ? 'a hidden piece: ' : 'a ') +
        (known ? pieceName(p.captured) : 'identity not known'));
    }
  }

  // ---- the views ----
  var publicButton = document.getElementById('view-public');
  var trueButton = document.getElementById('view-true');
  var note = document.getElementById('view-note');
  if (D.no_truth) {
    trueButton.disabled = true;
    note.textContent = D.no_truth;
  } else {
    note.textContent = 'Public view: hidden pieces face down, as both players see them. ' +
      'True view: each hidden piece still face down, its true identity drawn faintly on it.';
  }
  // The view's state and buttons, without drawing.
  function markView(truth) {
    trueView = !!(truth && D.truth);
    publicButton.className = trueView ? '' : 'on';
    trueButton.className = trueView ? 'on' : '';
  }
  function setView(truth) {
    markView(truth);
    drawBoard();
    remember();
  }
  // The address keeps the ply and the view: #ply=K, and &view=true in the true view.
  function remember() {
    var hash = '#ply=' + cur + (trueView ? '&view=true' : '');
    if (location.hash !== hash) {
      try {
        history.replaceState(null, '', hash);
      } catch (err) {
        location.hash = hash;
      }
    }
  }
  publicButton.addEventListener('click', function () { setView(false); });
  trueButton.addEventListener('click', function () { setView(true); });

  // ---- the move list ----
  var list = document.getElementById('moves');
  var cells = [];
  (function () {
    var start = html('div', 'row start', null, list);
    cells[0] = html('span', 'mv', 'start', start);
    cells[0].setAttribute('data-ply', '0');
    var row = null;
    var number = D.fullmove;
    for (var i = 0; i < N; i++) {
      var p = D.plies[i];
      if (row === null) {
        row = html('div', 'row', null, list);
        html('span', 'num', number + '.', row);
        if (p.mover === 'black') html('span', 'mv none', '\u2026', row);
      }
      var cell = html('span', 'mv ' + p.mover, p.text, row);
      cell.setAttribute('data-ply', String(i + 1));
      if (p.verdict && p.verdict.mark) {
        html('span', 'cls ' + p.verdict['class'], p.verdict.mark, cell);
      }
      cells[i + 1] = cell;
      if (p.mover === 'black') {
        number++;
        row = null;
      }
    }
    list.addEventListener('click', function (e) {
      var t = e.target;
      while (t && t !== list && !t.hasAttribute('data-ply')) t = t.parentNode;
      if (t && t !== list) go(+t.getAttribute('data-ply'));
    });
  })();
  function showCurrentMove() {
    cells.forEach(function (c, k) { c.classList.toggle('cur', k === cur); });
    var c = cells[cur];
    if (c.offsetTop < list.scrollTop ||
      c.offsetTop + c.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, c.offsetTop - list.clientHeight / 2);
    }
  }

  // ---- the panel ----
  var info = document.getElementById('info');
  function row(dl, term, value) {
    if (value === undefined || value === null || value === '') return;
    html('dt', null, term, dl);
    html('dd', null, value, dl);
  }
  function describe(p) {
    var out = [];
    if (p.reveal) out.push('revealed ' + withArticle(NAMES[p.reveal.toLowerCase()]));
    if (p.captured) {
      var known = p.captured !== 'X' && p.captured !== 'x';
      var what = known ? NAMES[p.captured.toLowerCase()] : 'piece';
      out.push('captured ' + (p.captured_hidden ? 'a hidden ' + what : withArticle(what)));
    }
    if (p.check) out.push('check');
    return out.join(', ');
  }
  function drawInfo() {
    while (info.firstChild) info.removeChild(info.firstChild);
    var toMove = (cur % 2 === 0) === (D.first === 'red') ? 'Red' : 'Black';
    if (cur === 0) {
      html('h2', null, 'Start position', info);
      var dl0 = html('dl', null, null, info);
      row(dl0, 'to move', toMove);
      if (N === 0) row(dl0, 'moves', 'none were played');
      return;
    }
    var p = D.plies[cur - 1];
    var mover = p.mover === 'red' ? 'Red' : 'Black';
    html('h2', null, 'Ply ' + cur + ': ' + mover + ' ' + p.text, info);
    var dl = html('dl', null, null, info);
    row(dl, 'mover', mover + ' (' + (p.mover === 'red' ? D.red : D.black) + ')');
    row(dl, 'move', p.text + (describe(p) ? ' \u2014 ' + describe(p) : ''));
    if (p.engine) {
      var e = p.engine;
      var parts = [];
      if (e.score) parts.push('score ' + e.score);
      if (e.depth !== undefined) parts.push('depth ' + e.depth);
      parts.push('nodes ' + e.nodes);
      if (e.ms !== undefined) parts.push(e.ms.toFixed(1) + ' ms');
      row(dl, 'engine', parts.join(' \u00b7 '));
      if (e.pv.length) row(dl, 'engine pv', e.pv.join(' '));
    } else {
      row(dl, 'engine', 'nothing recorded');
    }
    var v = p.verdict;
    if (v) {
      row(dl, 'reference best', v.best + ' (' + v.best_score + ')');
      row(dl, 'played', p.text + ' (' + v.played_score + ')');
      row(dl, 'loss', v.loss.toFixed(3) + (v.loss_cp !== undefined ? ' (' + v.loss_cp + ' cp)' : ''));
      if (v['class']) row(dl, 'class', v['class'] + ' ' + v.mark);
      if (v.chance !== undefined) {
        row(dl, 'chance', signed(v.chance, 3) + ' (' + (v.chance_from || 'chance') +
          ': the luck of what the hidden piece was)');
      }
      row(dl, 'note', v.note);
      if (v.pv.length) row(dl, 'reference pv', v.pv.join(' '));
      if (v.omniscient) row(dl, 'omniscient best', v.omniscient[0] + ' (' + v.omniscient[1] + ')');
    }
    if (cur === N) {
      row(dl, 'result', D.result + ' (' + D.ending + ')');
    } else {
      row(dl, 'to move', toMove);
    }
  }

  // ---- the chart ----
  var chart = document.getElementById('chart');
  var CW = 640, CH = 200, PL = 44, PR = 14, PT = 12, PB = 28;
  chart.setAttribute('viewBox', '0 0 ' + CW + ' ' + CH);
  var span = Math.max(N, 1);
  function cx(k) { return PL + (CW - PL - PR) * k / span; }
  function cy(v) { return PT + (CH - PT - PB) * (1 - v); }
  var cursor;
  (function () {
    var bg = svg('rect', {
      x: PL, y: PT, width: CW - PL - PR, height: CH - PT - PB, 'class': 'plot'
    }, chart);
    bg.addEventListener('click', function (e) {
      var m = bg.getScreenCTM();
      if (!m) return;
      var x = (e.clientX - m.e) / m.a;
      go(Math.round((x - PL) / (CW - PL - PR) * span));
    });
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      svg('line', {
        x1: PL, x2: CW - PR, y1: cy(v), y2: cy(v), 'class': v === 0.5 ? 'half' : 'tick'
      }, chart);
      svg('text', { x: PL - 6, y: cy(v) + 4, 'class': 'ylabel' }, chart).textContent =
        (v * 100) + '%';
    });
    var step = 1;
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 500].some(function (s) { step = s; return span / s <= 12; });
    for (var k = 0; k <= span; k += step) {
      svg('line', { x1: cx(k), x2: cx(k), y1: CH - PB, y2: CH - PB + 4, 'class': 'tick' }, chart);
      svg('text', { x: cx(k), y: CH - PB + 16, 'class': 'xlabel' }, chart).textContent = String(k);
    }
    function series(values, cls, dots) {
      var d = '';
      var any = false;
      values.forEach(function (v, k) {
        if (v === null || v === undefined) return;
        d += (any ? ' L' : 'M') + cx(k).toFixed(1) + ' ' + cy(v).toFixed(1);
        any = true;
        if (dots) svg('circle', { cx: cx(k), cy: cy(v), r: 2.2, 'class': 'dot ' + cls }, chart);
      });
      if (any) svg('path', { d: d, 'class': 'series ' + cls }, chart);
      return any;
    }
    var shown = [];
    var C = D.chart;
    if (series(C.red_engine, 'red-engine', true)) shown.push(['red-engine', 'Red\u2019s engine: ' + D.red]);
    if (series(C.black_engine, 'black-engine', true)) shown.push(['black-engine', 'Black\u2019s engine: ' + D.black]);
    if (C.reference && series(C.reference, 'reference', false)) {
      shown.push(['reference', 'reference: ' + D.reference + ', from Red\u2019s view throughout (what Red could know)']);
    }
    if (C.omniscient && series(C.omniscient, 'omniscient', false)) shown.push(['omniscient', 'reference, omniscient (sees the hidden pieces)']);
    if (!shown.length) {
      svg('text', { x: (PL + CW - PR) / 2, y: cy(0.5) - 8, 'class': 'empty' }, chart).textContent =
        'no scores recorded';
    }
    cursor = svg('line', { id: 'cursor', y1: PT, y2: CH - PB, 'class': 'cursor' }, chart);
    var classes = {};
    C.marks.forEach(function (m) {
      var ply = m[0], cls = m[2];
      classes[cls] = true;
      var dot = svg('circle', {
        cx: cx(ply), cy: cy(m[1]), r: 5.5, 'class': 'mark ' + cls, 'data-ply': ply
      }, chart);
      var p = D.plies[ply - 1];
      title(dot, 'ply ' + ply + ' ' + p.text + ': ' + cls +
        (p.verdict ? ' (loss ' + p.verdict.loss.toFixed(3) + ')' : ''));
      dot.addEventListener('click', function () { go(ply); });
    });
    ['inaccuracy', 'mistake', 'blunder'].forEach(function (c) {
      if (classes[c]) shown.push(['mark ' + c, c + ' (on the reference line after the move; click: go there)']);
    });
    var legend = document.getElementById('legend');
    html('span', 'what', 'Red\u2019s expected score (50% = even) at each position: 0 is the start, ' +
      'ply K the position after the K-th move. Each engine\u2019s line is its own score of the ' +
      'positions it moved in.', legend);
    shown.forEach(function (s) {
      var item = html('span', 'item', null, legend);
      html('span', 'swatch ' + s[0], null, item);
      html('span', null, s[1], item);
    });
  })();
  function drawCursor() {
    cursor.setAttribute('x1', cx(cur));
    cursor.setAttribute('x2', cx(cur));
  }

  // ---- navigation: one function for every way there ----
  var plyno = document.getElementById('plyno');
  var buttons = {
    first: document.getElementById('first'), prev: document.getElementById('prev'),
    next: document.getElementById('next'), last: document.getElementById('last')
  };
  function go(k) {
    k = Math.max(0, Math.min(N, Math.round(+k || 0)));
    cur = k;
    drawBoard();
    showCurrentMove();
    drawInfo();
    drawCursor();
    plyno.textContent = 'ply ' + cur + ' / ' + N;
    buttons.first.disabled = buttons.prev.disabled = cur === 0;
    buttons.next.disabled = buttons.last.disabled = cur === N;
    remember();
  }
  window.go = go;
  buttons.first.addEventListener('click', function () { go(0); });
  buttons.prev.addEventListener('click', function () { go(cur - 1); });
  buttons.next.addEventListener('click', function () { go(cur + 1); });
  buttons.last.addEventListener('click', function () { go(N); });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case 'ArrowLeft': go(cur - 1); break;
      case 'ArrowRight': go(cur + 1); break;
      case 'ArrowUp': go(cur - 2); break;
      case 'ArrowDown': go(cur + 2); break;
      case 'Home': go(0); break;
      case 'End': go(N); break;
      case 't': case 'T': setView(!trueView); break;
      default: return;
    }
    e.preventDefault();
  });
  function fromHash() {
    var m = /ply=(\d+)/.exec(location.hash);
    return m ? +m[1] : 0;
  }
  function viewFromHash() {
    return /(^|[#&])view=true(&|$)/.test(location.hash);
  }
  // The ply and the view are both read before anything is drawn: drawing rewrites the address.
  function fromAddress() {
    var k = fromHash();
    markView(viewFromHash());
    go(k);
  }
  window.addEventListener('hashchange', function () {
    if (fromHash() !== cur || viewFromHash() !== trueView) fromAddress();
  });
  fromAddress();
})();
