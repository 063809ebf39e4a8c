// FACA's messages, labels and limits, apart from the schemas: the FACA pages show them at once and
// zod (≈ 25 KB gzip) would come along with any import of faca.ts.
export const facaMessages = {
  snCode: '请输入设备SN码',
  workmanship: '请选择工艺类型',
  count: '请输入报警次数',
  warningContent: '请输入报警内容',
  facaDescription: '请输入现场描述',
  duration: '报警时长只能填写数字',
  influenceParameters: '请选择影响参数',
  faDescription: '请输入故障分析',
  caDescription: '请输入纠正措施',
  faInfoId: '请选择关联FA',
  handler: '请选择处理人',
  resolvingTime: '请选择纳期',
  ngReason: '请输入NG原因',
  treatment: '请选择处理结果',
  onlyPictures: '只能上传图片',
  onlyVideos: '只能上传视频',
  pictureTooLarge: '图片大小不能超过10M',
  videoTooLarge: '视频大小不能超过10M',
  tooManyPictures: '最多上传9张图片',
  tooManyVideos: '最多上传9个视频',
  badFileName: '文件名不合法',
  noFile: '请选择要上传的文件',
  mediaType: '请选择附件类型（图片或视频）',
  badMedia: '附件不存在或已被使用',
  uploadQuota: '未保存的附件已达200M上限，请先保存表单再上传',
  handlerCannotSee: '处理人无权查看该设备',
  onlyHandler: '只有处理人可以提交处理结果',
  onlyAssigner: '只有处理人或指派人可以更改处理人',
  badId: '编号必须是正整数',
  textTooLong: '内容不能超过 500 个字',
  saved: '保存成功',
} as const;

/**
 * Uploads (docs/product.md sections 5, 9): extensions by kind, 10 MB each, 9 each per form; what one user
 * may hold uploaded but not yet saved with a form (20 videos' worth).
 */
export const MEDIA_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxFiles: 9,
  unattachedBytesPerUser: 200 * 1024 * 1024,
  pic: ['jpg', 'jpeg', 'png', 'gif', 'bmp'],
  video: ['mp4', 'qlv', 'qsv', 'ogg', 'flv', 'avi', 'wmv', 'rmvb'],
} as const;

// Question status flags: rules/question-statuses.ts; CA statuses (= task treatments) and task
// statuses: rules/ca-statuses.ts.
export const DATA_FROM_MANUAL = '手动录入';
