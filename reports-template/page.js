// Dashboard page script: table sorting (click or Enter on a header) and the per-query row filter.
// Inlined into dashboard.html and allowed by its sha256 in the page's Content-Security-Policy.
(function () {
  function key(td) {
    var v = td.getAttribute('data-v');
    if (v === null) v = td.textContent || '';
    if (v === '') return { e: 1, n: 0, s: '' };
    var n = Number(v);
    return isNaN(n) ? { e: 0, n: 0, s: v.toLowerCase() } : { e: 0, n: n, s: null };
  }
  function cmp(a, b) {
    if (a.e !== b.e) return a.e - b.e;
    if (a.s === null && b.s === null) return a.n - b.n;
    if (a.s === null) return -1;
    if (b.s === null) return 1;
    return a.s < b.s ? -1 : a.s > b.s ? 1 : 0;
  }
  document.querySelectorAll('table.sortable-table').forEach(function (table) {
    var ths = table.querySelectorAll('thead th');
    ths.forEach(function (th, col) {
      th.setAttribute('tabindex', '0');
      function sort() {
        var asc = th.getAttribute('aria-sort') !== 'ascending';
        ths.forEach(function (o) { o.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows).filter(function (r) { return r.cells.length > col; });
        var keyed = rows.map(function (r, i) { return { r: r, k: key(r.cells[col]), i: i }; });
        keyed.sort(function (a, b) {
          if (a.k.e !== b.k.e) return a.k.e - b.k.e;
          var c = cmp(a.k, b.k);
          return (asc ? c : -c) || a.i - b.i;
        });
        keyed.forEach(function (x) { body.appendChild(x.r); });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); sort(); } });
    });
  });
  document.querySelectorAll('input[data-filter]').forEach(function (input) {
    var table = document.getElementById(input.getAttribute('data-filter'));
    if (!table) return;
    input.addEventListener('input', function () {
      var q = input.value.toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        r.style.display = !q || (r.textContent || '').toLowerCase().indexOf(q) >= 0 ? '' : 'none';
      });
    });
  });
})();
