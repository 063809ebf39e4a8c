/** The three dots' moments: each rises, falls and settles, 0.2 s after the one before. */
const DOTS = [
  { x: 20, begin: '0s' },
  { x: 46, begin: '0.2s' },
  { x: 72, begin: '0.4s' },
];

/**
 * What a page shows while its code or the session loads: three bouncing dots in the theme's
 * colour (antd-mobile DotLoading's look, drawn here in SVG so that index.html can paint the very
 * same markup before any script runs; page-loading.test.tsx keeps the two equal, so the switch to
 * React is seamless). The class is global for that reason.
 */
export const PageLoading = () => (
  <div className="lw-page-loading" data-testid="page-loading">
    <svg height="1em" viewBox="0 0 100 40" aria-hidden="true">
      {DOTS.map(({ x, begin }) => (
        <rect key={x} fill="currentColor" x={x} y="16" width="8" height="8" rx="2">
          <animate
            attributeName="y"
            dur="2s"
            begin={begin}
            repeatCount="indefinite"
            values="16; 6; 26; 16; 16"
            keyTimes="0; 0.1; 0.3; 0.4; 1"
          />
        </rect>
      ))}
    </svg>
  </div>
);
