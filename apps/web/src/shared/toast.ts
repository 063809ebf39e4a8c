import type { ToastShowProps } from 'antd-mobile';

/*
 * antd-mobile's Toast animates with react-spring (≈ 13 KB gzip); it is fetched with the first
 * toast rather than with every first screen. A toast comes after a request or a tap, by which time
 * the chunk is usually cached.
 */
const show = (props: ToastShowProps): void => {
  void import('./imperative-ui.ts').then(({ Toast }) => Toast.show(props));
};

export const toastFailure = (content: string): void => {
  show({ icon: 'fail', content });
};

export const toastSuccess = (content: string): void => {
  show({ icon: 'success', content });
};

export const toastInfo = (content: string): void => {
  show({ content });
};
