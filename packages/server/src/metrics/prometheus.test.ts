import { describe, expect, it } from 'vitest';
import { Counter, Gauge, Histogram, MetricsRegistry } from './prometheus.js';

describe('Prometheus text exposition', () => {
  it('renders counters, gauges and cumulative histograms with escaped labels', () => {
    const registry = new MetricsRegistry();
    const counter = registry.register(new Counter('demo_total', 'A demo counter.'));
    registry.register(new Gauge('demo_in_flight', 'Now.', () => 2));
    const histogram = registry.register(new Histogram('demo_seconds', 'A demo histogram.', [1, 0.5]));
    counter.inc({ code: 'A"B\\C\nD' });
    counter.inc({ code: 'A"B\\C\nD' }, 2);
    histogram.observe({ model: 'm' }, 0.2);
    histogram.observe({ model: 'm' }, 0.7);
    histogram.observe({ model: 'm' }, 3);
    expect(registry.render()).toBe(
      [
        '# HELP demo_total A demo counter.',
        '# TYPE demo_total counter',
        'demo_total{code="A\\"B\\\\C\\nD"} 3',
        '# HELP demo_in_flight Now.',
        '# TYPE demo_in_flight gauge',
        'demo_in_flight 2',
        '# HELP demo_seconds A demo histogram.',
        '# TYPE demo_seconds histogram',
        'demo_seconds_bucket{model="m",le="0.5"} 1',
        'demo_seconds_bucket{model="m",le="1"} 2',
        'demo_seconds_bucket{model="m",le="+Inf"} 3',
        'demo_seconds_sum{model="m"} 3.9',
        'demo_seconds_count{model="m"} 3',
        '',
      ].join('\n'),
    );
  });
});
