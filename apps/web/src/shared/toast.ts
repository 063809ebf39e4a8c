import { Toast } from 'antd-mobile';

export const toastFailure = (content: string): void => {
  Toast.show({ icon: 'fail', content });
};

export const toastSuccess = (content: string): void => {
  Toast.show({ icon: 'success', content });
};

export const toastInfo = (content: string): void => {
  Toast.show({ content });
};
