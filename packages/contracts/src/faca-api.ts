import { endpoint } from './endpoint.ts';
import type {
  CaIdQuery,
  CaInfoBody,
  FacaByIdQuery,
  FacaInfo,
  FacaInfoBody,
  FacaInfoIds,
  FacaPageQuery,
  FaInfoBody,
  HandlerListQuery,
  HandlerOption,
  NamedOption,
  OptionsQuery,
  SavedId,
  Task,
  TaskPageQuery,
  TaskResultBody,
} from './faca.ts';
import type { ContentPage } from './rules/paging.ts';

/** FACA questions, FA, CA and tasks (docs/product.md section 7; schemas in faca.ts). */
export const facaApi = {
  facaInfoPage: endpoint<FacaPageQuery, ContentPage<FacaInfo>>('GET', '/api/facaInfo/facaInfoPage'),
  getFacaById: endpoint<FacaByIdQuery, FacaInfo>('GET', '/api/facaInfo/getFacaById'),
  addOrUpdateFacaInfo: endpoint<FacaInfoBody, SavedId>('POST', '/api/facaInfo/addOrUpdateFacaInfo'),
  addOrUpdateFaInfo: endpoint<FaInfoBody, SavedId>('POST', '/api/facaInfo/addOrUpdateFaInfo'),
  addOrUpdateCaInfo: endpoint<CaInfoBody, SavedId>('POST', '/api/facaInfo/addOrUpdateCaInfo'),
  getInfluenceParametersPage: endpoint<OptionsQuery, ContentPage<NamedOption>>(
    'GET',
    '/api/facaInfo/getInfluenceParametersPage',
  ),
  getWorkmanshipPage: endpoint<OptionsQuery, ContentPage<NamedOption>>(
    'GET',
    '/api/facaInfo/getWorkmanshipPage',
  ),
  /** Not in the spec: the users a CA can be handed to (those who may see the machine). */
  getHandlerList: endpoint<HandlerListQuery, HandlerOption[]>(
    'GET',
    '/api/facaInfo/getHandlerList',
  ),
  taskPage: endpoint<TaskPageQuery, ContentPage<Task>>('GET', '/api/task/taskPage'),
  getFacaInfoIds: endpoint<CaIdQuery, FacaInfoIds>('GET', '/api/task/getFacaInfoIds'),
  /** Not in the spec: a handler's result (treatment OK / NG) completes the task. */
  submitTask: endpoint<TaskResultBody, SavedId>('POST', '/api/task/submitTask'),
} as const;

/**
 * Uploads and files (multipart and binary: not `call`-able). `upload` takes `?type=pic|video`
 * and up to 9 files, replies MediaRef[]; `hdImage` (`?id&type`) and `thumbnail` (`?id`) answer
 * the bytes with a safe Content-Type, nosniff and a sandbox CSP.
 */
export const mediaPaths = {
  upload: '/api/facaInfo/upload',
  hdImage: '/api/facaInfo/getHDImage',
  thumbnail: '/api/facaInfo/getThumbnail',
} as const;
