// dlprof-lint report script. Progressive enhancement only: without it every view is shown one after the
// other, each table with its first page (rendered by the server). With it: one view at a time from the
// navigation bar; tables that sort, search (all columns, or one column) and page over the data embedded once
// in inert JSON data blocks; master-detail tables; finding drill-down (#hl=TABLE:ROWS) and
// row selection (#sel=TABLE:ROW) from the address. Data is only ever written with textContent, never parsed
// as markup. No eval, no inline handlers; allowed by the page's Content-Security-Policy through its hash.
(function () {
  'use strict';
  var doc = document;
  var DASH = '\u2014';
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };

  // ---- formatting: the same rules as dlproflint.findings.Units (through html.Fmt and table.Cells) ----------
  // Java's String.format("%.nf", x): the shortest decimal digits of x (as Java and JavaScript print doubles),
  // rounded half up at n decimals; the sign of a negative value (or -0) is kept
  function jfixed(x, n) {
    var neg = x < 0 || (x === 0 && 1 / x < 0);
    var m = /^(\d+)(?:\.(\d*))?(?:e([+-]\d+))?$/.exec(String(Math.abs(x)));
    var digits = m[1] + (m[2] || ''), point = m[1].length + (m[3] ? +m[3] : 0);
    if (point < 0) { digits = new Array(1 - point).join('0') + digits; point = 0; }
    while (digits.length < point + n + 1) digits += '0';
    var d = digits.slice(0, point + n).split('').map(Number);
    if (digits.charAt(point + n) >= '5') {
      var i = d.length - 1;
      while (i >= 0 && d[i] === 9) d[i--] = 0;
      if (i >= 0) d[i]++; else { d.unshift(1); point++; }
    }
    var whole = d.slice(0, point).join('').replace(/^0+(?=\d)/, '') || '0';
    return (neg ? '-' : '') + whole + (n > 0 ? '.' + d.slice(point).join('') : '');
  }
  function dur(ns) {
    if (!isFinite(ns)) return String(ns);
    var a = Math.abs(ns);
    if (a < 1e3) return jfixed(ns, 0) + ' ns';
    if (a < 1e6) return jfixed(ns / 1e3, 0) + ' \u00b5s';
    if (a < 1e9) return jfixed(ns / 1e6, 1) + ' ms';
    return jfixed(ns / 1e9, 2) + ' s';
  }
  function count(n) {
    var s = String(Math.abs(n)), out = '';
    while (s.length > 3) { out = ',' + s.slice(-3) + out; s = s.slice(0, -3); }
    return (n < 0 ? '-' : '') + s + out;
  }
  function pct(p) {
    if (p > 0 && p < 0.05) return p < 0.01 ? '<0.01%' : jfixed(p, 2) + '%';
    return isFinite(p) ? jfixed(p, 1) + '%' : 'n/a';
  }
  function bytes(b) {
    if (b < 1024) return b + ' B';
    var units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'], v = b, u = -1;
    while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
    return jfixed(v, 1) + ' ' + units[u];
  }
  function cut(s) {
    if (s.length <= 120) return s;
    var c = 119, code = s.charCodeAt(c - 1);
    if (code >= 0xD800 && code <= 0xDBFF) c--;
    return s.slice(0, c) + '\u2026';
  }
  function text(kind, v) {
    if (v === null || v === undefined) return DASH;
    switch (kind) {
      case 't': return cut(String(v));
      case 'i': return String(v);
      case 'c': return count(v);
      case 'd': return dur(v);
      case 'p': return pct(v);
      case 'y': return bytes(v);
      case 'b': return v ? '\u2713 yes' : '\u2717 no';
      default: return '';
    }
  }
  var NUMERIC = {i: 1, c: 1, d: 1, p: 1, y: 1};

  // ---- data blocks, parsed on first use -------------------------------------------------------------------
  var blocks = {};
  function block(id) {
    var b = blocks[id];
    if (!b) {
      var node = doc.getElementById(id);
      var j = node ? JSON.parse(node.textContent) : {f: [], r: []};
      var pos = {};
      j.f.forEach(function (f, i) { pos[f] = i; });
      b = blocks[id] = {rows: j.d ? derive(j.d, j.f) : j.r, pos: pos};
    }
    return b;
  }
  // a derived block (table.Derivation): the source rows grouped, summed, ordered, as the server computed them
  function derive(d, fields) {
    var src = block(d.from), keys = d.by.map(function (f) { return src.pos[f]; }), groups = {}, rows = [];
    src.rows.forEach(function (r) {
      var k = keys.map(function (p) { return String(r[p]); }).join('\u0001'), g = groups[k];
      if (!g) {
        g = groups[k] = keys.map(function (p) { return r[p]; });
        d.agg.forEach(function (a) { g.push(a[1] === 'sum' ? 0 : null); });
        rows.push(g);
      }
      d.agg.forEach(function (a, i) {
        if (a[3] !== null && !r[src.pos[a[3]]]) return;
        var v = r[src.pos[a[2]]], o = keys.length + i;
        if (v === null || v === undefined) return;
        g[o] = a[1] === 'sum' ? g[o] + v : g[o] === null ? v : Math.min(g[o], v);
      });
    });
    var order = d.order.map(function (f) { return fields.indexOf(f); });
    rows.forEach(function (r, i) { r.i = i; });
    rows.sort(function (a, b) {
      for (var k = 0; k < order.length; k++) {
        var x = a[order[k]] === null ? -Infinity : a[order[k]], y = b[order[k]] === null ? -Infinity : b[order[k]];
        if (x !== y) return x < y ? -1 : 1;
      }
      return a.i - b.i;
    });
    return rows;
  }
  function el(tag, cls, txt) {
    var e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (txt !== undefined) e.textContent = txt;
    return e;
  }

  // ---- tables ----------------------------------------------------------------------------------------------
  var tables = {};
  function Table(root) {
    var t = this;
    t.root = root;
    t.id = root.id;
    t.cols = JSON.parse(root.getAttribute('data-cols')).map(function (c) {
      return {key: c[0], label: c[1], kind: c[2], field: c[3], ref: c[4], rf: c[5], shown: c[6] === 1, hint: c[7], fallback: c[8]};
    });
    t.shown = t.cols.filter(function (c) { return c.shown; });
    t.selectable = root.hasAttribute('data-select');
    t.master = root.getAttribute('data-master');
    t.links = (root.getAttribute('data-links') || '').split(',').filter(Boolean).map(function (l) { return l.split('='); });
    t.baseFilter = root.getAttribute('data-base') ? root.getAttribute('data-base').split('=') : null;
    var s = (root.getAttribute('data-sort') || '').split(':');
    t.sortKey = s[0] || null;
    t.sortDesc = s[1] === 'desc';
    t.size = 10;
    t.page = 0;
    t.q = '';
    t.colQ = {};
    t.hl = null;
    t.selected = null;
    t.masterRow = null;
    t.table = root.querySelector('table');
    t.body = t.table.tBodies[0];
    t.info = root.querySelector('.dt-info');
    t.detail = doc.querySelector('[data-detail-for="' + t.id + '"]');
    var first = t.body.querySelector('tr[aria-selected="true"]');
    if (first) t.selected = +first.getAttribute('data-row');
    t.tools();
    t.wireRows();
    var nojs = root.querySelector('.dt-nojs');
    if (nojs) nojs.hidden = true;
    root.setAttribute('data-ready', '1');
  }
  Table.prototype.data = function () { return block(this.root.getAttribute('data-block')); };
  Table.prototype.value = function (row, c) {
    var d = this.data(), v = row[d.pos[c.field]];
    if (c.ref && (v === null || v === undefined) && c.fallback) return row[d.pos[c.fallback]];
    if (!c.ref || c.kind === 'f' || v === null || v === undefined) return v;
    var target = block(c.ref), r = target.rows[v];
    return r ? r[target.pos[c.rf]] : null;
  };
  Table.prototype.tools = function () {
    var t = this, bar = el('div', 'dt-bar');
    var label = el('label', 'dt-search');
    label.appendChild(doc.createTextNode('Search '));
    t.search = el('input');
    t.search.type = 'search';
    t.search.setAttribute('aria-label', 'Search ' + t.table.caption.textContent);
    t.search.addEventListener('input', function () { t.q = t.search.value.toLowerCase(); t.page = 0; t.refresh(); });
    label.appendChild(t.search);
    bar.appendChild(label);
    var sl = el('label', 'dt-size');
    sl.appendChild(doc.createTextNode('Rows per page '));
    var sel = el('select');
    [10, 25, 50, 100].forEach(function (n) { var o = el('option', null, String(n)); o.value = n; sel.appendChild(o); });
    sel.addEventListener('change', function () { t.size = +sel.value; t.page = 0; t.refresh(); });
    sl.appendChild(sel);
    bar.appendChild(sl);
    t.chip = el('p', 'dt-chip');
    t.chip.hidden = true;
    t.root.insertBefore(bar, t.root.firstChild);
    t.root.insertBefore(t.chip, bar.nextSibling);
    // header: sort buttons and a filter row
    var head = t.table.tHead.rows[0], filters = el('tr', 'dt-filters');
    each(head.cells, function (th, i) {
      var c = t.shown[i], b = el('button', 'sort');
      b.type = 'button';
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      b.addEventListener('click', function () {
        var desc = t.sortKey === c.key ? !t.sortDesc : !!NUMERIC[c.kind];
        t.sortKey = c.key;
        t.sortDesc = desc;
        t.page = 0;
        t.refresh();
      });
      var f = el('td'), inp = el('input');
      if (c.kind !== 'f') {
        inp.type = 'search';
        inp.setAttribute('aria-label', 'Filter ' + c.label + (c.kind === 'b' ? ' (1 or 0)' : ''));
        inp.addEventListener('input', function () { t.colQ[i] = inp.value.toLowerCase(); t.page = 0; t.refresh(); });
        f.appendChild(inp);
      }
      filters.appendChild(f);
    });
    t.table.tHead.appendChild(filters);
    t.pager = el('nav', 'dt-pager');
    t.pager.setAttribute('aria-label', 'Pages of ' + t.table.caption.textContent);
    t.root.appendChild(t.pager);
    t.drawPager(Math.ceil(+t.root.getAttribute('data-count') / t.size));
  };
  Table.prototype.wireRows = function () {
    var t = this;
    if (!t.selectable) return;
    t.body.addEventListener('click', function (e) {
      if (e.target.closest('a')) return;
      var tr = e.target.closest('tr[data-row]');
      if (tr) t.select(+tr.getAttribute('data-row'), true);
    });
    t.body.addEventListener('keydown', function (e) {
      var tr = e.target.closest('tr[data-row]');
      if (!tr) return;
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); t.select(+tr.getAttribute('data-row'), true); }
      else if (e.key === 'ArrowDown' && tr.nextElementSibling) { e.preventDefault(); tr.nextElementSibling.focus(); }
      else if (e.key === 'ArrowUp' && tr.previousElementSibling) { e.preventDefault(); tr.previousElementSibling.focus(); }
    });
    each(t.body.rows, function (tr) { if (tr.hasAttribute('data-row')) tr.tabIndex = 0; });
  };
  // rows the table lists at all: the base filter and, for a detail table, the master's selected row
  Table.prototype.baseRows = function () {
    var t = this, d = t.data(), out = [], m = t.master ? tables[t.master] : null;
    var mrow = m && m.selected !== null ? m.data().rows[m.selected] : null;
    if (m && !mrow) return out;
    var bp = t.baseFilter ? d.pos[t.baseFilter[0]] : -1;
    var lk = t.links.map(function (l) { return [d.pos[l[0]], l[1] === '#' ? -1 : m.data().pos[l[1]]]; });
    for (var i = 0; i < d.rows.length; i++) {
      var r = d.rows[i];
      if (bp >= 0 && String(r[bp]) !== t.baseFilter[1]) continue;
      var ok = true;
      for (var k = 0; k < lk.length && ok; k++) {
        var want = lk[k][1] < 0 ? m.selected : mrow[lk[k][1]];
        ok = String(r[lk[k][0]]) === String(want);
      }
      if (ok) out.push(i);
    }
    return out;
  };
  // the lowercased text of column ci of block row i, as search compares it (computed once, on first need)
  Table.prototype.hay = function (ci, i) {
    var t = this, cache = (t.cache = t.cache || {}), h = cache[ci] || (cache[ci] = []);
    var s = h[i];
    if (s === undefined) {
      var c = t.shown[ci], v = t.value(t.data().rows[i], c);
      s = h[i] = c.kind === 'b' ? (v ? '1 yes' : '0 no')
          : c.kind === 't' ? (v === null || v === undefined ? DASH : String(v)).toLowerCase() : text(c.kind, v).toLowerCase();
    }
    return s;
  };
  Table.prototype.matches = function (i) {
    var t = this;
    for (var ci in t.colQ) {
      var q = t.colQ[ci];
      if (!q) continue;
      var h = t.hay(+ci, i);
      if (t.shown[ci].kind === 'b' ? (q === '1' || q === '0' ? h.charAt(0) !== q : h.indexOf(q) < 0) : h.indexOf(q) < 0) return false;
    }
    if (!t.q) return true;
    for (var k = 0; k < t.shown.length; k++) {
      if (t.shown[k].kind !== 'f' && t.hay(k, i).indexOf(t.q) >= 0) return true;
    }
    return false;
  };
  Table.prototype.refresh = function () {
    var t = this, rows = t.data().rows, list = t.baseRows(), view = [];
    for (var i = 0; i < list.length; i++) {
      var r = list[i];
      if (t.hl && !t.hl[r]) continue;
      if (t.matches(r)) view.push(r);
    }
    var sc = null;
    t.shown.forEach(function (c) { if (c.key === t.sortKey) sc = c; });
    if (sc) {
      var num = NUMERIC[sc.kind] || sc.kind === 'b', key = {}, dir = t.sortDesc ? -1 : 1;
      view.forEach(function (r) {
        var v = t.value(rows[r], sc);
        key[r] = num ? (v === null || v === undefined ? -Infinity : +v) : (v === null || v === undefined ? '' : String(v).toLowerCase());
      });
      view.sort(function (a, b) { var x = key[a], y = key[b]; return x < y ? -dir : x > y ? dir : a - b; });
    }
    each(t.table.tHead.rows[0].cells, function (th, i) {
      if (t.shown[i].key === t.sortKey) th.setAttribute('aria-sort', t.sortDesc ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    });
    t.view = view;
    t.total = list.length;
    var pages = Math.max(1, Math.ceil(view.length / t.size));
    if (t.page >= pages) t.page = pages - 1;
    t.render();
    t.drawPager(pages);
  };
  Table.prototype.render = function () {
    var t = this, rows = t.data().rows, from = t.page * t.size, to = Math.min(t.view.length, from + t.size);
    var body = doc.createElement('tbody');
    for (var i = from; i < to; i++) body.appendChild(t.row(t.view[i], rows[t.view[i]]));
    if (from === to) {
      var tr = el('tr', 'empty'), td = el('td', null, t.q || Object.keys(t.colQ).some(function (k) { return t.colQ[k]; }) ? 'No matching rows.' : t.root.getAttribute('data-empty'));
      td.colSpan = t.shown.length;
      tr.appendChild(td);
      body.appendChild(tr);
    }
    t.table.replaceChild(body, t.body);
    t.body = body;
    t.wireRows();
    var shown = t.view.length ? (from + 1) + ' to ' + to + ' of ' + count(t.view.length) : '0 of 0';
    t.info.textContent = 'Showing ' + shown + ' rows' + (t.view.length < t.total ? ' (filtered from ' + count(t.total) + ')' : '');
  };
  Table.prototype.row = function (r, row) {
    var t = this, tr = el('tr');
    tr.setAttribute('data-row', r);
    if (t.selected === r) { tr.setAttribute('aria-selected', 'true'); tr.className = 'sel'; }
    if (t.hl && t.hl[r]) tr.className += ' hl';
    t.shown.forEach(function (c) {
      var v = t.value(row, c), td = el('td');
      if (c.kind === 'f') {
        td.className = 'fl';
        findingLinks(td, c.ref, v);
      } else {
        td.textContent = text(c.kind, v);
        td.className = NUMERIC[c.kind] ? 'num' : c.kind === 'b' ? (v ? 'yes' : 'no') : 'name';
        if (c.kind === 't' && v !== null && v !== undefined && String(v).length > 120) td.title = String(v);
      }
      tr.appendChild(td);
    });
    return tr;
  };
  Table.prototype.drawPager = function (pages) {
    var t = this, p = t.pager;
    while (p.firstChild) p.removeChild(p.firstChild);
    if (pages <= 1) return;
    function btn(label, page, current) {
      var b = el('button', 'pg', label);
      b.type = 'button';
      if (current) b.setAttribute('aria-current', 'page');
      if (page < 0 || page >= pages) b.disabled = true;
      b.addEventListener('click', function () { t.page = page; t.refresh(); });
      p.appendChild(b);
    }
    btn('Previous', t.page - 1);
    var shown = {};
    [0, t.page - 2, t.page - 1, t.page, t.page + 1, t.page + 2, pages - 1].forEach(function (i) {
      if (i >= 0 && i < pages) shown[i] = 1;
    });
    var last = -1;
    Object.keys(shown).map(Number).sort(function (a, b) { return a - b; }).forEach(function (i) {
      if (i > last + 1) p.appendChild(el('span', 'gap', '\u2026'));
      btn(String(i + 1), i, i === t.page);
      last = i;
    });
    btn('Next', t.page + 1);
  };
  Table.prototype.select = function (r, user) {
    var t = this;
    t.selected = r;
    each(t.body.rows, function (tr) {
      var on = +tr.getAttribute('data-row') === r;
      tr.classList.toggle('sel', on);
      if (on) tr.setAttribute('aria-selected', 'true'); else tr.removeAttribute('aria-selected');
    });
    if (t.detail) t.showDetail(r);
    Object.keys(tables).forEach(function (id) {
      var d = tables[id];
      if (d.master !== t.id) return;
      d.page = 0;
      d.selected = null;
      d.refresh();
      if (d.selectable && d.view.length) d.select(d.view[0], false);
      else d.cascade();
    });
    if (user && t.detail) t.root.setAttribute('data-selected', r);
  };
  Table.prototype.cascade = function () {
    var t = this;
    Object.keys(tables).forEach(function (id) {
      var d = tables[id];
      if (d.master === t.id) { d.page = 0; d.refresh(); d.cascade(); }
    });
  };
  Table.prototype.showDetail = function (r) {
    var t = this, row = t.data().rows[r], dl = el('dl');
    t.cols.forEach(function (c) {
      var v = t.value(row, c), box = el('div');
      box.appendChild(el('dt', null, c.label));
      var dd = el('dd');
      if (c.kind === 'f') findingLinks(dd, c.ref, v);
      else dd.textContent = c.kind === 't' ? (v === null || v === undefined ? DASH : String(v)) : text(c.kind, v);
      box.appendChild(dd);
      dl.appendChild(box);
    });
    var old = t.detail.querySelector('dl');
    if (old) t.detail.replaceChild(dl, old); else t.detail.appendChild(dl);
  };
  Table.prototype.highlight = function (set, n) {
    var t = this;
    t.hl = set;
    t.page = 0;
    while (t.chip.firstChild) t.chip.removeChild(t.chip.firstChild);
    if (set) {
      t.chip.appendChild(doc.createTextNode('Showing the ' + count(n) + ' row' + (n === 1 ? '' : 's') + ' the finding is about. '));
      var b = el('button', 'pg', 'Show all rows');
      b.type = 'button';
      b.addEventListener('click', function () { t.highlight(null, 0); });
      t.chip.appendChild(b);
    }
    t.chip.hidden = !set;
    t.refresh();
  };
  function findingLinks(cell, blockId, v) {
    if (!v || !v.length) return;
    var f = block(blockId);
    v.forEach(function (i) {
      var r = f.rows[i], a = el('a', 'fl sev-' + r[f.pos.severity]), rule = String(r[f.pos.rule]);
      a.href = '#' + r[f.pos.anchor];
      a.title = r[f.pos.problem];
      var icon = el('span', null, r[f.pos.icon]);
      icon.setAttribute('aria-hidden', 'true');
      a.appendChild(icon);
      a.appendChild(doc.createTextNode(' ' + rule.slice(rule.lastIndexOf('/') + 1)));
      cell.appendChild(a);
      cell.appendChild(doc.createTextNode(' '));
    });
  }

  // ---- views and addresses ---------------------------------------------------------------------------------
  function showView(view) {
    if (!view) return;
    var profile = view.closest('.profile');
    each(profile.querySelectorAll('.view'), function (v) { v.hidden = v !== view; });
    each(profile.querySelectorAll('nav.views a'), function (a) {
      if (a.getAttribute('href') === '#' + view.id) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    });
  }
  function parseRows(spec) {
    var set = {}, n = 0;
    spec.split('.').forEach(function (part) {
      var ab = part.split('-'), a = +ab[0], b = ab.length > 1 ? +ab[1] : a;
      for (var i = a; i <= b && n < 1e6; i++) { set[i] = 1; n++; }
    });
    return {set: set, n: n, first: +spec.split(/[.-]/)[0]};
  }
  function route() {
    var h = decodeURIComponent(location.hash.slice(1)), m;
    if ((m = /^(hl|sel)=([A-Za-z0-9_-]+):([0-9.-]+)$/.exec(h))) {
      var t = tables[m[2]];
      if (!t) return;
      showView(t.root.closest('.view'));
      var rows = parseRows(m[3]);
      if (m[1] === 'hl') {
        t.highlight(rows.set, rows.n);
        if (rows.n === 1 && t.selectable) t.select(rows.first, true);
      } else {
        t.highlight(null, 0);
        t.select(rows.first, true);
        var pos = t.view.indexOf(rows.first);
        if (pos >= 0) { t.page = Math.floor(pos / t.size); t.refresh(); }
      }
      t.root.scrollIntoView();
      return;
    }
    if ((m = /^sort=([A-Za-z0-9_-]+):(\d+):(asc|desc)$/.exec(h))) {
      var st = doc.getElementById(m[1]);
      if (st && st.getAttribute('data-sortable') === 'ready') {
        showView(st.closest('.view'));
        sortStatic(st, +m[2], m[3]);
        var d = st.closest('details');
        if (d) d.open = true;
        st.scrollIntoView();
      }
      return;
    }
    var target = h ? doc.getElementById(h) : null;
    if (target && focusTimeline(target)) return;
    if (target) {
      // the browser could not scroll to an element of a hidden view: show the view, then scroll
      showView(target.classList.contains('view') ? target : target.closest('.view'));
      target.scrollIntoView();
    }
  }

  // ---- timeline: zoom by moving every shape from its data-s / data-e (µs from the window's start) -----------
  function Timeline(fig) {
    var g = fig.querySelector('.tl-plot'), t = this;
    t.fig = fig;
    t.x0 = +g.getAttribute('data-x0');
    t.w = +g.getAttribute('data-w');
    t.full = [0, +g.getAttribute('data-t1')];
    t.range = t.full.slice();
    t.shapes = fig.querySelectorAll('rect[data-s]');
    t.labels = fig.querySelectorAll('text[data-s]');
    t.ticks = fig.querySelectorAll('.tl-axis text');
    t.out = doc.querySelector('[data-tl="' + fig.id + '"] .tl-range');
  }
  Timeline.prototype.draw = function () {
    var t = this, a = t.range[0], b = t.range[1], k = t.w / (b - a), right = t.x0 + t.w;
    each(t.shapes, function (r) {
      var x = t.x0 + (+r.getAttribute('data-s') - a) * k, x2 = t.x0 + (+r.getAttribute('data-e') - a) * k;
      if (x2 < t.x0 || x > right) { r.setAttribute('visibility', 'hidden'); return; }
      x = Math.max(x, t.x0);
      x2 = Math.min(x2, right);
      r.setAttribute('visibility', 'visible');
      r.setAttribute('x', x.toFixed(1));
      r.setAttribute('width', Math.max(0.5, x2 - x).toFixed(1));
    });
    each(t.labels, function (l) {
      var x = t.x0 + (+l.getAttribute('data-s') - a) * k;
      l.setAttribute('visibility', x < t.x0 - 1 || x > right ? 'hidden' : 'visible');
      l.setAttribute('x', (Math.max(x, t.x0) + 3).toFixed(1));
    });
    each(t.ticks, function (l, i) { l.textContent = dur((a + (b - a) * i / (t.ticks.length - 1)) * 1000); });
    if (t.out) t.out.textContent = 'Showing ' + dur(a * 1000) + ' to ' + dur(b * 1000) + ' of ' + dur(t.full[1] * 1000);
    t.fig.setAttribute('data-range', a.toFixed(1) + ':' + b.toFixed(1));
  };
  Timeline.prototype.set = function (a, b) {
    var t = this, min = Math.max(1, (t.full[1] - t.full[0]) / 1e5);
    if (b - a < min) { var c = (a + b) / 2; a = c - min / 2; b = c + min / 2; }
    t.range = [Math.max(t.full[0], a), Math.min(t.full[1], b)];
    t.draw();
  };
  Timeline.prototype.zoom = function (f, at) {
    var a = this.range[0], b = this.range[1], c = at === undefined ? (a + b) / 2 : at;
    this.set(c - (c - a) * f, c + (b - c) * f);
  };
  Timeline.prototype.show = function (s, e) {
    var m = Math.max((e - s) * 0.4, 1);
    this.set(s - m, e + m);
  };
  var timelines = {};
  each(doc.querySelectorAll('figure.tl'), function (fig) {
    var t = timelines[fig.id] = new Timeline(fig);
    fig.addEventListener('wheel', function (e) {
      if (!e.ctrlKey && !e.shiftKey) return; // plain scrolling scrolls the page
      e.preventDefault();
      var box = fig.querySelector('svg').getBoundingClientRect(), scale = 1100 / box.width;
      var x = (e.clientX - box.left) * scale, at = t.range[0] + (x - t.x0) / t.w * (t.range[1] - t.range[0]);
      t.zoom(e.deltaY < 0 ? 0.6 : 1 / 0.6, at);
    }, {passive: false});
  });
  each(doc.querySelectorAll('[data-tl-zoom]'), function (b) {
    b.addEventListener('click', function () {
      var t = timelines[b.parentNode.getAttribute('data-tl')], z = b.getAttribute('data-tl-zoom');
      if (!t) return;
      if (z === 'all') t.set(t.full[0], t.full[1]); else t.zoom(z === 'in' ? 0.5 : 2);
    });
  });
  /** A link to a shape of a timeline ("show on timeline"): the view, zoomed to that shape and what follows it. */
  function focusTimeline(target) {
    var fig = target.closest ? target.closest('figure.tl') : null, t = fig ? timelines[fig.id] : null;
    if (!t || !target.getAttribute('data-s')) return false;
    showView(fig.closest('.view'));
    t.show(+target.getAttribute('data-s'), +target.getAttribute('data-e'));
    fig.scrollIntoView();
    return true;
  }

  // ---- small static tables (dashboard, rules): click-to-sort only ------------------------------------------
  function staticValue(row, col, numeric) {
    var cell = row.cells[col];
    if (!cell) return numeric ? -Infinity : '';
    var v = cell.getAttribute('data-sort');
    if (v === null) v = cell.textContent.trim();
    return numeric ? (parseFloat(v) || 0) : v.toLowerCase();
  }
  function sortStatic(table, col, dir) {
    var th = table.tHead.rows[0].cells[col];
    if (!th) return;
    var numeric = th.getAttribute('data-type') === 'num', body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = staticValue(a, col, numeric), y = staticValue(b, col, numeric);
      var c = numeric ? x - y : x.localeCompare(y);
      return dir === 'desc' ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    each(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir === 'desc' ? 'descending' : 'ascending');
    table.setAttribute('data-sorted', col + ':' + dir);
  }
  each(doc.querySelectorAll('table.sortable'), function (table) {
    if (!table.tHead || !table.tBodies.length) return;
    each(table.tHead.rows[0].cells, function (th, col) {
      var b = el('button', 'sort');
      b.type = 'button';
      b.title = 'Sort by this column';
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      b.addEventListener('click', function () {
        var cur = th.getAttribute('aria-sort');
        var dir = cur ? (cur === 'descending' ? 'asc' : 'desc') : (th.getAttribute('data-type') === 'num' ? 'desc' : 'asc');
        sortStatic(table, col, dir);
        if (table.id && window.history && history.replaceState) history.replaceState(null, '', '#sort=' + table.id + ':' + col + ':' + dir);
      });
    });
    table.setAttribute('data-sortable', 'ready');
  });

  // ---- start -----------------------------------------------------------------------------------------------
  each(doc.querySelectorAll('.dt'), function (root) { tables[root.id] = new Table(root); });
  // links that need the script (drill-down, selection) say where they go in data-go; without it, href = the view
  each(doc.querySelectorAll('a[data-go]'), function (a) {
    a.addEventListener('click', function (e) {
      e.preventDefault();
      var go = '#' + a.getAttribute('data-go');
      if (location.hash === go) route(); else location.hash = go;
    });
  });
  // "show on timeline" again after zooming away: the same address, so no hashchange; go there anyway
  each(doc.querySelectorAll('a.tl-link'), function (a) {
    a.addEventListener('click', function (e) {
      if (location.hash !== a.getAttribute('href')) return;
      e.preventDefault();
      route();
    });
  });
  each(doc.querySelectorAll('.profile'), function (p) {
    var first = p.querySelector('.view');
    if (first) showView(first);
  });
  each(doc.querySelectorAll('.js-note'), function (n) { n.hidden = true; });
  window.addEventListener('hashchange', route);
  route();
  doc.documentElement.setAttribute('data-report', 'ready');
  if (window.performance && performance.mark) performance.mark('dlprof-lint:ready');
})();
