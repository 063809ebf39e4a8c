// The web app's own route table: the journeys type the addresses a user would, from one source.
export { links, paths } from '../../apps/web/src/shared/paths.ts';
