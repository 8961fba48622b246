import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { useSearchParams } from 'react-router';

import { apiPath } from '../api/api-client.js';
import type { PendingDevice } from '../api/api-resources.js';
import { formatDateTime } from '../format/dates.js';
import { useAnnouncer } from '../ui/announcer.js';
import { FormError } from '../ui/form-error.js';
import { TextField } from '../ui/form-field.js';
import { Page, Section } from '../ui/page.js';
import { QueryState } from '../ui/query-state.js';
import { useApi } from './session-context.js';

/** How `nr login` shows the code: two groups of four letters. */
const USER_CODE = /^[A-Za-z]{4}[- ]?[A-Za-z]{4}$/;

/**
 * Where a device's sign-in (`nr login` on a headless machine) is approved: the user enters the code the
 * device shows (or follows its link, which carries it), sees which client asks, and approves or denies.
 */
export function DevicePage() {
  const [search] = useSearchParams();
  const [typed, setTyped] = useState(search.get('code') ?? '');
  const [code, setCode] = useState(() => {
    const given = search.get('code');
    return given !== null && USER_CODE.test(given.trim()) ? given.trim() : undefined;
  });
  const [formatError, setFormatError] = useState<string>();
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!USER_CODE.test(typed.trim())) {
      setFormatError('Enter the eight letters the device shows, like BCDF-GHJK.');
      return;
    }
    setFormatError(undefined);
    setCode(typed.trim());
  };
  return (
    <Page
      title="Sign in a device"
      description="Approve a sign-in that nr, the NodeRings CLI, asked for on another machine."
    >
      {code === undefined ? (
        <Section title="Enter the code" id="code">
          <form className="form-narrow" onSubmit={submit} noValidate>
            <TextField
              label="Code shown by the device"
              name="userCode"
              autoComplete="off"
              autoCapitalize="characters"
              value={typed}
              error={formatError}
              onChange={(e) => {
                setTyped(e.target.value);
              }}
            />
            <button type="submit">Continue</button>
          </form>
        </Section>
      ) : (
        <DeviceDecision
          code={code}
          onOtherCode={() => {
            setCode(undefined);
          }}
        />
      )}
    </Page>
  );
}

function DeviceDecision({ code, onOtherCode }: { readonly code: string; readonly onOtherCode: () => void }) {
  const api = useApi();
  const { announce } = useAnnouncer();
  const device = useQuery({
    queryKey: ['device', code],
    queryFn: () => api.get<{ device: PendingDevice }>(apiPath`/v1/oauth/device/${code}`),
    retry: false,
  });
  const decide = useMutation({
    mutationFn: (verb: 'approve' | 'deny') =>
      api.post(
        verb === 'approve'
          ? apiPath`/v1/oauth/device/${code}:approve`
          : apiPath`/v1/oauth/device/${code}:deny`,
      ),
    onSuccess: (_answer, verb) => {
      announce(verb === 'approve' ? 'The device is signed in.' : 'The sign-in was denied.');
    },
  });
  if (decide.isSuccess) {
    return (
      <Section title={decide.variables === 'approve' ? 'Signed in' : 'Denied'} id="decided">
        <p role="status">
          {decide.variables === 'approve'
            ? 'The device is signed in as you. You can close this page and go back to it.'
            : 'The device was not signed in. If you did not start this sign-in, nothing else is needed.'}
        </p>
      </Section>
    );
  }
  return (
    <Section title="Check the request" id="request">
      <QueryState query={device} loadingLabel="Looking up the code…">
        {({ device: d }) => (
          <>
            <p>
              <strong>{d.clientName}</strong> asks to sign in as you with the code <code>{d.userCode}</code>.
              Approve only if you started this sign-in yourself and the device shows the same code.
            </p>
            <p className="muted">The request lapses at {formatDateTime(d.expireTime)}.</p>
            <FormError error={decide.error} />
            <div className="button-row">
              <button
                type="button"
                disabled={decide.isPending}
                onClick={() => {
                  decide.mutate('approve');
                }}
              >
                Approve
              </button>{' '}
              <button
                type="button"
                className="button-secondary"
                disabled={decide.isPending}
                onClick={() => {
                  decide.mutate('deny');
                }}
              >
                Deny
              </button>
            </div>
          </>
        )}
      </QueryState>
      <p>
        <button type="button" className="button-secondary button-small" onClick={onOtherCode}>
          Enter another code
        </button>
      </p>
    </Section>
  );
}
