import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';

/** The value of one series in a Prometheus text body. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('counts turns by status, errors by code and model calls, with duration histograms', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    for (const message of ['hello', 'story', 'nothing fits', 'fail', 'hello']) {
      await postMessage(app, session, { message });
    }
    const response = await app.request('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE treeagent_turns_total counter');
    expect(sample(text, 'treeagent_turns_total{status="answered"}')).toBe(3);
    expect(sample(text, 'treeagent_turns_total{status="no-match"}')).toBe(1);
    expect(sample(text, 'treeagent_turns_total{status="error"}')).toBe(1);
    expect(sample(text, 'treeagent_errors_total{code="CALLBACK_ERROR"}')).toBe(1);
    expect(sample(text, 'treeagent_model_calls_total{model="scripted",purpose="emit"}')).toBe(1);
    expect(text).toContain('# TYPE treeagent_turn_duration_seconds histogram');
    expect(sample(text, 'treeagent_turn_duration_seconds_count{status="answered"}')).toBe(3);
    expect(sample(text, 'treeagent_turn_duration_seconds_bucket{status="answered",le="+Inf"}')).toBe(3);
    expect(sample(text, 'treeagent_model_call_duration_seconds_count{model="scripted"}')).toBe(1);
    expect(sample(text, 'treeagent_turns_in_flight')).toBe(0);
  });

  it('can be turned off', async () => {
    const { app } = testApp({ metrics: false });
    expect((await app.request('/metrics')).status).toBe(404);
  });
});
