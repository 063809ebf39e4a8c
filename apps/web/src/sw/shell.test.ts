import { describe, expect, it } from 'vitest';
import { NOT_A_PAGE, shellFor } from './shell.ts';

const precached = new Set(['index.html', 'pages/deviceList.html', 'pages/faca/task.html']);
const has = (file: string) => precached.has(file);

describe('the shell a page navigation gets offline', () => {
  it('is the route’s own copy when the build wrote one', () => {
    expect(shellFor('/deviceList', has)).toBe('pages/deviceList.html');
    expect(shellFor('/faca/task', has)).toBe('pages/faca/task.html');
  });

  it('is index.html for any other path (history-mode routes, unknown paths)', () => {
    expect(shellFor('/', has)).toBe('index.html');
    expect(shellFor('/faca/task/other', has)).toBe('index.html');
    expect(shellFor('/nowhere', has)).toBe('index.html');
  });

  it('is never asked for the API, sockets or metrics', () => {
    for (const path of ['/api/session', '/ws/realtime/LW-1', '/metrics', '/metrics/x'])
      expect(NOT_A_PAGE.test(path)).toBe(true);
    for (const path of ['/deviceList', '/metricsPage', '/apiary'])
      expect(NOT_A_PAGE.test(path)).toBe(false);
  });
});
