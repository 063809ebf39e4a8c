/** Polls until `probe` returns something other than undefined / null / false, and returns it. */
export const waitFor = async <T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeout = 20_000, interval = 50, what = 'condition' } = {},
): Promise<T> => {
  const deadline = Date.now() + timeout;
  let lastError: Error | undefined;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error));
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeout} ms waiting for ${what}` +
          (lastError ? ` (last error: ${lastError.message})` : ''),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
};
