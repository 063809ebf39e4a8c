#!/usr/bin/env node
// `npx linewatch-gateway --config gateway.json`: the agent, run through tsx (Node 20 cannot
// strip TypeScript types itself).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
