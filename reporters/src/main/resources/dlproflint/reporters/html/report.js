// Progressive enhancement only: the report reads the same without it. Makes tables with class
// "sortable" sort by a click on a header (numbers by data-sort), and applies "#sort=TABLE:COLUMN:asc|desc"
// from the address, so a sorted view can be shared as a link. Uses no eval, no inline handlers.
(function () {
  'use strict';
  function value(row, col, numeric) {
    var cell = row.cells[col];
    if (!cell) return numeric ? -Infinity : '';
    var v = cell.getAttribute('data-sort');
    if (v === null) v = cell.textContent.trim();
    return numeric ? (parseFloat(v) || 0) : v.toLowerCase();
  }
  function sort(table, col, dir) {
    var th = table.tHead.rows[0].cells[col];
    if (!th) return;
    var numeric = th.getAttribute('data-type') === 'num';
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = value(a, col, numeric), y = value(b, col, numeric);
      var c = numeric ? x - y : x.localeCompare(y);
      return dir === 'desc' ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir === 'desc' ? 'descending' : 'ascending');
    table.setAttribute('data-sorted', col + ':' + dir);
  }
  var tables = document.querySelectorAll('table.sortable');
  Array.prototype.forEach.call(tables, function (table) {
    if (!table.tHead || !table.tBodies.length) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'sort';
      b.title = 'Sort by this column';
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      b.addEventListener('click', function () {
        var cur = th.getAttribute('aria-sort');
        var dir = cur ? (cur === 'descending' ? 'asc' : 'desc') : (th.getAttribute('data-type') === 'num' ? 'desc' : 'asc');
        sort(table, col, dir);
        if (table.id && window.history && history.replaceState) {
          history.replaceState(null, '', '#sort=' + table.id + ':' + col + ':' + dir);
        }
      });
    });
    table.setAttribute('data-sortable', 'ready');
  });
  var m = /^#sort=([A-Za-z0-9_-]+):(\d+):(asc|desc)$/.exec(location.hash);
  if (m) {
    var t = document.getElementById(m[1]);
    if (t && t.classList.contains('sortable') && t.getAttribute('data-sortable') === 'ready') {
      sort(t, parseInt(m[2], 10), m[3]);
      var d = t.closest('details');
      if (d) d.open = true;
      t.scrollIntoView();
    }
  }
})();
