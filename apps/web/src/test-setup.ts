import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// vi.waitFor and testing-library's findBy* give up after 1 s by default. A page's first render
// waits for its lazy layout and page modules, a toast or dialog for antd-mobile's (as in the
// app), which on a CI machine running three test files on two cores can take longer; waiting
// longer changes no verdict (the condition is checked every 50 ms and passes as soon as it holds).
configure({ asyncUtilTimeout: 5_000 });
const waitFor = vi.waitFor;
vi.waitFor = (callback, options) =>
  waitFor(callback, {
    timeout: 5_000,
    ...(typeof options === 'number' ? { timeout: options } : options),
  });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});
