// Dashboard page script: table sorting (click or Enter on a header), the per-query row filter,
// rows drawn on demand and charts drawn when they come into view. It computes nothing: rows
// drawn on demand are the cells the renderer wrote as data (pipeline/report/render.ts cellData),
// charts are the specs and rows the renderer wrote, drawn by the chart runtime.
// Inlined into dashboard.html and allowed by its sha256 in the page's Content-Security-Policy.
(function () {
  // rows on demand: the data block #ID-rows (JSON, gzip, base64:
  // render.ts packRows) -> rows appended to table#ID, once; a promise of the drawn table
  function unpack(text) {
    var bin = atob(text.trim());
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(JSON.parse);
  }
  var drawn = {};
  function drawRows(table) {
    var id = table?.getAttribute('data-rows');
    var src = id && document.getElementById(id);
    if (!src) return drawn[id] || Promise.resolve();
    if (drawn[id]) return drawn[id];
    drawn[id] = unpack(src.textContent || '').then(function (data) {
      appendRows(table, data);
      src.parentNode.removeChild(src);
      table.removeAttribute('data-rows');
    });
    return drawn[id];
  }
  function appendRows(table, data) {
    var more = document.querySelector('button[data-more="' + table.id + '"]');
    if (more) more.parentNode.removeChild(more);
    var frag = document.createDocumentFragment();
    data.rows.forEach(function (r) {
      var tr = document.createElement('tr');
      if (r[0]) tr.className = r[0];
      for (var i = 1; i < r.length; i++) {
        var c = r[i];
        var td = document.createElement('td');
        var cls = typeof c === 'string' || c.length < 3 ? data.cls[i - 1] : c[2];
        if (cls) td.className = cls;
        if (typeof c === 'string') td.setAttribute('data-v', c);
        else if (c.length > 1) td.setAttribute('data-v', c[1] === null ? '' : String(c[1]));
        if (typeof c !== 'string' && c[3]) td.setAttribute('colspan', String(c[3]));
        // the renderer's HTML, escaped by construction (the same bytes the page holds for eager rows)
        td.innerHTML = typeof c === 'string' ? c : c[0];
        tr.appendChild(td);
      }
      frag.appendChild(tr);
    });
    table.tBodies[0].appendChild(frag);
  }
  document.querySelectorAll('button[data-more]').forEach(function (b) {
    b.addEventListener('click', function () {
      drawRows(document.getElementById(b.getAttribute('data-more')));
    });
  });
  document.querySelectorAll('details').forEach(function (d) {
    d.addEventListener('toggle', function () {
      if (d.open) d.querySelectorAll('table[data-rows]').forEach(drawRows);
    });
  });

  function key(td) {
    var v = td.getAttribute('data-v');
    if (v === null) v = td.textContent || '';
    if (v === '') return { e: 1, n: 0, s: '' };
    var n = Number(v);
    return Number.isNaN(n) ? { e: 0, n: 0, s: v.toLowerCase() } : { e: 0, n: n, s: null };
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
        drawRows(table).then(sortNow);
      }
      function sortNow() {
        var asc = th.getAttribute('aria-sort') !== 'ascending';
        ths.forEach(function (o) {
          o.removeAttribute('aria-sort');
        });
        th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows).filter(function (r) {
          return r.cells.length > col;
        });
        var keyed = rows.map(function (r, i) {
          return { r: r, k: key(r.cells[col]), i: i };
        });
        keyed.sort(function (a, b) {
          if (a.k.e !== b.k.e) return a.k.e - b.k.e;
          var c = cmp(a.k, b.k);
          return (asc ? c : -c) || a.i - b.i;
        });
        keyed.forEach(function (x) {
          body.appendChild(x.r);
        });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (ev) {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          sort();
        }
      });
    });
  });
  document.querySelectorAll('input[data-filter]').forEach(function (input) {
    var table = document.getElementById(input.getAttribute('data-filter'));
    if (!table) return;
    input.addEventListener('input', function () {
      drawRows(table).then(function () {
        var q = input.value.toLowerCase();
        Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
          r.style.display = !q || (r.textContent || '').toLowerCase().indexOf(q) >= 0 ? '' : 'none';
        });
      });
    });
  });

  // charts: each figure carries its compiled Vega spec and its rows, packed as the rows above
  // (pipeline/report/charts.ts); the chart runtime, inlined before this script in a page with
  // charts (pipeline/report/page/chart_runtime.ts), draws it into the figure's slot when the
  // figure comes near the window (or the page prints). A chart that cannot be drawn says so in
  // its slot, and on the console.
  function drawChart(fig) {
    var data = fig.querySelector('script.chart-data');
    var draw = window.mcpgaugeDrawChart;
    if (!data || typeof draw !== 'function') return;
    data.parentNode.removeChild(data);
    var slot = fig.querySelector('.chart-slot');
    unpack(data.textContent)
      .then(function (c) {
        return draw(slot, c.spec, c.rows);
      })
      .then(
        function () {
          fig.classList.add('drawn');
        },
        function (e) {
          fig.classList.add('failed');
          slot.textContent = 'This chart could not be drawn (' + (e?.message || e) + '); its numbers are in the tables.';
          console.error('chart ' + fig.getAttribute('data-chart') + ': ' + (e?.stack || e));
        },
      );
  }
  var figs = document.querySelectorAll('figure.chart');
  if (typeof IntersectionObserver === 'function') {
    var io = new IntersectionObserver(
      function (entries) {
        entries.forEach(function (e) {
          if (e.isIntersecting) {
            io.unobserve(e.target);
            drawChart(e.target);
          }
        });
      },
      { rootMargin: '200px 0px' },
    );
    figs.forEach(function (f) {
      if (f.querySelector('script.chart-data')) io.observe(f);
    });
  } else figs.forEach(drawChart);
  window.addEventListener('beforeprint', function () {
    figs.forEach(drawChart);
  });
})();
