import { DotLoading } from 'antd-mobile';

/**
 * What a page shows while its code or the session loads. index.html paints the same markup before
 * any script runs (page-loading.test.tsx keeps the two equal), so the switch to React is seamless;
 * the class is global for that reason. DotLoading rather than SpinLoading: SpinLoading animates with
 * react-spring, which would put that library on every first screen.
 */
export const PageLoading = () => (
  <div className="lw-page-loading" data-testid="page-loading">
    <DotLoading color="primary" />
  </div>
);
