/** Web-only copy (texts shared with the server live in packages/contracts). */
export const webMessages = {
  networkError: '网络异常，请检查网络连接',
  timeout: '请求超时，请检查网络后重试',
  reLogin: '请重新登录',
  notFound: '页面不存在',
  chunkFailed: '页面加载失败',
  connectionError: '连接异常',
  noDevice: '当前无选择设备',
  reselectDevice: '请从设备列表重新选择设备',
  cancelled: '取消操作',
  selectFirst: '请先选择机台',
  loading: '加载中',
  loadMore: '加载更多',
  downloadFailed: '下载失败',
  /** The offline banner (app/layouts/offline-banner.tsx): 离线 · 数据更新于 3分钟前. */
  offline: '离线',
  dataAge: (age: string) => `数据更新于 ${age}`,
  retry: '重试',
} as const;
