import type { ApplyForm } from '@linewatch/contracts/applications';
import { applicationsApi } from '@linewatch/contracts/applications-api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { queryKeys } from '../../shared/query-keys.ts';

/*
 * The applicant has no account yet: the submit answers a token, kept in this browser's
 * localStorage (it outlives the tab, unlike the session), and /userAudit reads progress with it.
 */
const TOKEN_KEY = 'lw-application-token';

export const applicationToken = {
  get: (): string | null => {
    try {
      return localStorage.getItem(TOKEN_KEY);
    } catch {
      return null;
    }
  },
  set: (token: string) => {
    try {
      localStorage.setItem(TOKEN_KEY, token);
    } catch {
      // storage disabled: the applicant is told to keep the page open
    }
  },
};

export const useSendCodeMutation = () =>
  useMutation({ mutationFn: (mobile: string) => call(applicationsApi.sendCode, { mobile }) });

export const useApplyMutation = () =>
  useMutation({
    mutationFn: (form: ApplyForm) => call(applicationsApi.apply, form),
    onSuccess: ({ token }) => applicationToken.set(token),
  });

export const useProgressQuery = (token: string | null) =>
  useQuery({
    queryKey: queryKeys.applications.progress(token ?? ''),
    queryFn: () => call(applicationsApi.progress, { token: token! }),
    enabled: Boolean(token),
    retry: false,
  });
