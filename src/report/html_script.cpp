// The report's own JavaScript, kept apart from the C++ that writes the page. The chart script
// finds every <canvas data-chart="KIND" data-study="I">, builds a Chart.js configuration for
// KIND from study I's JSON and draws it without animation; a small plugin marks the canvas
// once its pixels are painted (and, on a best-so-far curve, counts its confirmed and
// unconfirmed points by the fill they were drawn with) and draws reference lines (speedup 1). Labels are arrays of
// lines (each route's changes from the default, wrapped server-side), so Chart.js prints them on
// several lines; a tooltip names the whole route. The
// script is kept in four pieces (set-up, generic charts, a study's charts, drawing), joined
// once.
#include "report/html_script.hpp"

#include <string>

namespace routetune {

std::string_view html_error_hook_script() {
    return R"js((function () {
  'use strict';
  window.routetuneErrors = [];
  function record(text) {
    window.routetuneErrors.push(String(text));
    var list = document.getElementById('page-errors');
    if (list) {
      var item = document.createElement('li');
      item.textContent = String(text);
      list.appendChild(item);
      list.hidden = false;
    }
    if (document.body) document.body.setAttribute('data-errors', String(window.routetuneErrors.length));
  }
  window.addEventListener('error', function (e) { record('error: ' + e.message); });
  window.addEventListener('unhandledrejection', function (e) { record('unhandled rejection: ' + e.reason); });
  document.addEventListener('securitypolicyviolation', function (e) {
    record('blocked by the page policy: ' + e.blockedURI + ' (' + e.violatedDirective + ')');
  });
  var original = console.error;
  console.error = function () {
    record('console.error: ' + Array.prototype.join.call(arguments, ' '));
    original.apply(console, arguments);
  };
  window.routetuneRecordError = record;
})();
)js";
}

namespace {

std::string_view setup_js() {
    return R"js((function () {
  'use strict';
  var data = JSON.parse(document.getElementById('study-data').textContent);
  var colours = {ok: '#2e7d32', inaccurate: '#f9a825', route_conflict: '#00838f', build_failed: '#c62828', build_crashed: '#8e24aa',
    build_timeout: '#6d4c41', run_failed: '#ef6c00', run_crashed: '#5e35b1', run_timeout: '#546e7a', pending: '#9e9e9e'};
  var palette = ['#1565c0', '#c62828', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#5d4037', '#ad1457'];
  var drawnCount = 0;
  var hollow = '#ffffff';

  // (afterRender also writes a linear x axis's tick values into data-x-ticks, for the tests.)
  // Counts the drawn points of a best-so-far curve by the fill they were drawn with (filled:
  // confirmed, hollow: unconfirmed) into data-confirmed-points and data-unconfirmed-points.
  function markPoints(chart) {
    var confirmed = 0, unconfirmed = 0;
    chart.data.datasets.forEach(function (dataset, i) {
      chart.getDatasetMeta(i).data.forEach(function (point, j) {
        var raw = dataset.data[j];
        if (!raw || raw.confirmed === undefined || !point.options) return;
        if (point.options.backgroundColor === hollow) unconfirmed++; else confirmed++;
      });
    });
    if (confirmed + unconfirmed === 0) return;
    chart.canvas.setAttribute('data-confirmed-points', String(confirmed));
    chart.canvas.setAttribute('data-unconfirmed-points', String(unconfirmed));
  }

  var marker = {
    id: 'routetuneMarker',
    afterDraw: function (chart, args, options) {
      var ctx = chart.ctx, area = chart.chartArea;
      (options.lines || []).forEach(function (line) {
        var scale = chart.scales[line.axis];
        if (!scale || line.value < scale.min || line.value > scale.max) return;
        var at = scale.getPixelForValue(line.value);
        ctx.save();
        ctx.strokeStyle = line.colour || '#555';
        ctx.setLineDash([4, 4]);
        ctx.beginPath();
        if (line.axis === 'x') { ctx.moveTo(at, area.top); ctx.lineTo(at, area.bottom); }
        else { ctx.moveTo(area.left, at); ctx.lineTo(area.right, at); }
        ctx.stroke();
        ctx.restore();
      });
    },
    afterRender: function (chart) {
      var canvas = chart.canvas;
      if (canvas.getAttribute('data-drawn') === 'true' || !chart.width || !chart.height) return;
      var pixels = chart.ctx.getImageData(0, 0, canvas.width, canvas.height).data, painted = 0;
      for (var i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted++;
      if (painted === 0) return;
      canvas.setAttribute('data-drawn', 'true');
      canvas.setAttribute('data-painted', String(painted));
      markPoints(chart);
      if (chart.scales.x && chart.scales.x.type === 'linear')
        canvas.setAttribute('data-x-ticks', chart.scales.x.ticks.map(function (t) { return t.value; }).join(' '));
      drawnCount++;
      document.body.setAttribute('data-drawn', String(drawnCount));
    }
  };
  Chart.register(marker);
  Chart.defaults.animation = false;
  Chart.defaults.responsive = true;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.size = 11;

)js";
}

std::string_view basic_charts_js() {
    return R"js(  function title(text) { return {display: true, text: text}; }
  function oneAt(axis) { return {lines: [{axis: axis, value: 1}]}; }
  function times(v) { return v === null ? '-' : v.toFixed(3) + '\u00d7'; }

  function intervalChart(rows, axisTitle) {
    return {
      type: 'bar',
      data: {
        labels: rows.map(function (r) { return r.lines; }),
        datasets: [
          {type: 'line', label: 'speedup', data: rows.map(function (r) { return r.speedup; }), showLine: false,
           pointRadius: 4, pointBackgroundColor: '#0d47a1', borderColor: '#0d47a1', indexAxis: 'y'},
          {type: 'bar', label: '95% interval', data: rows.map(function (r) { return [r.low, r.high]; }),
           backgroundColor: 'rgba(21,101,192,0.25)', borderColor: 'rgba(21,101,192,0.8)', borderWidth: 1,
           barPercentage: 0.5, indexAxis: 'y'}
        ]
      },
      options: {
        indexAxis: 'y',
        scales: {x: {beginAtZero: false, grace: '3%', title: title(axisTitle)}, y: {ticks: {autoSkip: false, font: {family: 'monospace'}}}},
        plugins: {
          routetuneMarker: oneAt('x'),
          tooltip: {callbacks: {
            title: function (items) { var r = rows[items[0].dataIndex]; return r.full || r.route; },
            label: function (item) {
              var r = rows[item.dataIndex];
              return times(r.speedup) + ' [' + times(r.low) + ', ' + times(r.high) + ']';
            }}}
        }
      }
    };
  }

  // Best-so-far curves: a point whose best route was confirmed is filled, an unconfirmed one
  // hollow and grey, on a dashed grey step.
  function progressChart(studies) {
    return {
      type: 'line',
      data: {datasets: studies.map(function (s, i) {
        var colour = palette[i % palette.length];
        var points = s.progress.map(function (p) { return {x: p[0], y: p[1], confirmed: p[2] !== false}; });
        function confirmedAt(index) { return points[index] && points[index].confirmed; }
        return {label: s.study + ' (' + s.search + ')', stepped: true, borderWidth: 2, pointRadius: 3,
                borderColor: colour, backgroundColor: colour, data: points,
                pointBackgroundColor: function (ctx) { return confirmedAt(ctx.dataIndex) ? colour : hollow; },
                pointBorderColor: function (ctx) { return confirmedAt(ctx.dataIndex) ? colour : '#9e9e9e'; },
                segment: {borderColor: function (ctx) { return confirmedAt(ctx.p0DataIndex) ? colour : '#9e9e9e'; },
                          borderDash: function (ctx) { return confirmedAt(ctx.p0DataIndex) ? [] : [5, 4]; }}};
      })},
      options: {
        scales: {x: {type: 'linear', title: title('builds (evaluations finished)'), ticks: {precision: 0}},
                 y: {title: title('best speedup so far (\u00d7 default; hollow: unconfirmed)')}},
        plugins: {routetuneMarker: oneAt('y'), legend: {display: studies.length > 1},
                  tooltip: {callbacks: {label: function (item) {
                    return times(item.raw.y) + (item.raw.confirmed ? ' (confirmed route or the default)' : ' (unconfirmed, search phase)');
                  }}}}
      }
    };
  }

)js";
}

std::string_view study_charts_js() {
    return R"js(  function samplesChart(rows) {
    var points = [], medians = [];
    rows.forEach(function (r, i) {
      var sorted = r.ms.filter(function (v) { return v !== null; }).sort(function (a, b) { return a - b; });
      r.ms.forEach(function (v, k) { if (v !== null) points.push({x: v, y: i + ((k % 7) - 3) * 0.05}); });
      if (sorted.length) {
        var m = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]
                                  : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        medians.push({x: m, y: i});
      }
    });
    return {
      type: 'scatter',
      data: {datasets: [
        {label: 'timing samples', data: points, pointRadius: 3, backgroundColor: 'rgba(21,101,192,0.55)'},
        {label: 'median', data: medians, pointStyle: 'line', rotation: 90, pointRadius: 12, borderWidth: 3,
         borderColor: '#c62828', backgroundColor: '#c62828'}
      ]},
      options: {
        scales: {
          x: {title: title('time (ms)')},
          y: {reverse: true, min: -0.5, max: rows.length - 0.5,
              afterBuildTicks: function (axis) { axis.ticks = rows.map(function (r, i) { return {value: i}; }); },
              ticks: {autoSkip: false, font: {family: 'monospace'},
                      callback: function (value) { return rows[value] ? rows[value].lines : ''; }}}
        }
      }
    };
  }

  function failuresChart(f) {
    return {
      type: 'bar',
      data: {labels: f.phases, datasets: f.statuses.map(function (s) {
        return {label: s.status, data: s.counts, backgroundColor: colours[s.status] || '#777'};
      })},
      options: {scales: {x: {stacked: true, title: title('phase')},
                         y: {stacked: true, title: title('evaluations'), ticks: {precision: 0}}}}
    };
  }

  function effectsChart(rows) {
    return intervalChart(rows.map(function (r) {
      return {route: r.label + ' (' + r.routes + ' ok routes)', lines: [r.label], speedup: r.speedup, low: r.low, high: r.high};
    }), 'estimated speedup of the value (\u00d7, additive model, 95% interval)');
  }

  function trialsChart(trials) {
    var ok = [], twins = [], rejected = [], low = 1;
    trials.forEach(function (t) { if (t[3] !== null && t[3] < low) low = t[3]; });
    trials.forEach(function (t) {
      var point = {x: t[0], y: t[3] === null ? low * 0.95 : t[3], route: t[1] || '(default)', status: t[2], full: t[5]};
      (t[3] === null ? rejected : t[4] ? twins : ok).push(point);
    });
    return {
      type: 'scatter',
      data: {datasets: [
        {label: 'ok', data: ok, backgroundColor: palette[0], pointRadius: 3},
        {label: 'byte-identical to an earlier one', data: twins, backgroundColor: '#9e9e9e', pointRadius: 3},
        {label: 'rejected', data: rejected, pointStyle: 'crossRot', borderColor: '#c62828', pointRadius: 5}]},
      options: {
        scales: {x: {type: 'linear', title: title('evaluation (finish order)'), ticks: {precision: 0}},
                 y: {title: title('search-phase speedup (\u00d7 default, unconfirmed)')}},
        plugins: {routetuneMarker: oneAt('y'), tooltip: {callbacks: {label: function (item) {
          var p = item.raw;
          var line = '#' + p.x + ' ' + p.route + ': ' + p.status + (p.status === 'ok' ? ' ' + times(p.y) : '');
          return p.full && p.full !== p.route ? [line, 'route: ' + p.full] : line;
        }}}}
      }
    };
  }

  function configFor(kind, study) {
    if (kind === 'compare-progress') return progressChart(data.studies);
    if (kind === 'progress') return progressChart([study]);
    if (kind === 'trials') return trialsChart(study.trials);
    if (kind === 'routes') return intervalChart(study.routes, 'speedup vs default (\u00d7), 95% interval of the route\u2019s median');
    if (kind === 'samples') return samplesChart(study.samples);
    if (kind === 'failures') return failuresChart(study.failures);
    if (kind === 'effects') return effectsChart(study.effects);
    if (kind === 'confirmation') return intervalChart(study.confirmation, 'confirmed speedup (\u00d7), interleaved, 95% interval');
    throw new Error('unknown chart kind ' + kind);
  }

)js";
}

std::string_view table_js() {
    return R"js(  // Every evaluations table gets a filter box (rows whose text holds it stay) and headers that
  // sort it (numbers by value, "-" last; a second click reverses). The page's address can name
  // both, so a view can be shared: #sort=time (or #sort=-time, descending) and #filter=text.
  function sortableTable(table, wanted) {
    var header = table.rows[0];
    var rows = Array.prototype.slice.call(table.rows, 1);
    var filter = document.createElement('input');
    filter.type = 'search';
    filter.className = 'row-filter';
    filter.placeholder = 'filter rows: route, status, message';
    filter.setAttribute('aria-label', 'filter the evaluations');
    table.parentNode.insertBefore(filter, table);
    function applyFilter(text) {
      var needle = text.toLowerCase();
      rows.forEach(function (row) {
        row.style.display = row.textContent.toLowerCase().indexOf(needle) >= 0 ? '' : 'none';
      });
    }
    filter.addEventListener('input', function () { applyFilter(filter.value); });
    function key(row, column) {
      var cell = row.cells[column];
      if (!cell.classList.contains('num')) return cell.textContent;
      var value = parseFloat(cell.textContent);
      return isNaN(value) ? Infinity : value;
    }
    var current = -1, ascending = true;
    function sortBy(column, up) {
      current = column;
      ascending = up;
      var body = rows[0] ? rows[0].parentNode : null;
      rows.slice().sort(function (a, b) {
        var x = key(a, column), y = key(b, column);
        var order = x < y ? -1 : x > y ? 1 : 0;
        return ascending ? order : -order;
      }).forEach(function (row) { body.appendChild(row); });
      Array.prototype.forEach.call(header.cells, function (cell, i) {
        cell.setAttribute('aria-sort', i === column ? (ascending ? 'ascending' : 'descending') : 'none');
      });
    }
    Array.prototype.forEach.call(header.cells, function (cell, column) {
      cell.classList.add('sortable');
      cell.title = 'sort by ' + cell.textContent;
      cell.addEventListener('click', function () { sortBy(column, column === current ? !ascending : true); });
    });
    if (wanted.filter) {
      filter.value = wanted.filter;
      applyFilter(wanted.filter);
    }
    if (wanted.sort) {
      var descending = wanted.sort.charAt(0) === '-';
      var name = (descending ? wanted.sort.slice(1) : wanted.sort).toLowerCase();
      Array.prototype.forEach.call(header.cells, function (cell, column) {
        if (cell.textContent.toLowerCase().indexOf(name) === 0 && current < 0) sortBy(column, !descending);
      });
    }
  }
  var wanted = {};
  location.hash.slice(1).split('&').forEach(function (part) {
    var at = part.indexOf('=');
    if (at > 0) wanted[decodeURIComponent(part.slice(0, at))] = decodeURIComponent(part.slice(at + 1));
  });
  document.querySelectorAll('table.evaluations').forEach(function (table) {
    try {
      sortableTable(table, wanted);
    } catch (e) {
      window.routetuneRecordError('table: ' + e.message);
    }
  });

)js";
}

std::string_view drawing_js() {
    return R"js(  var canvases = document.querySelectorAll('canvas[data-chart]');
  document.body.setAttribute('data-charts', String(canvases.length));
  document.body.setAttribute('data-drawn', '0');
  canvases.forEach(function (canvas) {
    try {
      var study = data.studies[Number(canvas.getAttribute('data-study') || 0)];
      new Chart(canvas, configFor(canvas.getAttribute('data-chart'), study));
    } catch (e) {
      window.routetuneRecordError('chart ' + canvas.id + ': ' + e.message);
    }
  });
  document.body.setAttribute('data-height', String(document.documentElement.scrollHeight));
  document.body.setAttribute('data-ready', 'true');

  if (data.live) {
    var seen = data.state;
    setInterval(function () {
      fetch('state', {cache: 'no-store'}).then(function (r) { return r.json(); }).then(function (s) {
        if (s.state !== seen) location.reload();
      }).catch(function () {});
    }, data.live * 1000);
  }
})();
)js";
}

}  // namespace

std::string_view html_chart_script() {
    static const std::string script = std::string(setup_js()) + std::string(basic_charts_js()) +
                                      std::string(study_charts_js()) + std::string(table_js()) + std::string(drawing_js());
    return script;
}

}  // namespace routetune
