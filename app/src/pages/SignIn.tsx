import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';

import { answer, api } from '../api';
import { useLocale } from '../i18n';
import { navigate } from '../router';

type State = 'asking' | 'sending' | 'sent' | 'redeeming' | 'invalid';

/**
 * Asks for a link by email, and spends one: the emailed link opens
 * /app/sign-in#token=…, whose token (in the fragment, which no server sees)
 * is exchanged for the session cookie once.
 */
export function SignIn() {
  const { words } = useLocale();
  const queryClient = useQueryClient();
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  const [state, setState] = useState<State>(token ? 'redeeming' : 'asking');
  const [email, setEmail] = useState('');
  const spent = useRef(false);

  useEffect(() => {
    if (!token || spent.current) return;
    spent.current = true;
    // The token leaves the address bar at once: it is not to stay in the history.
    window.history.replaceState(null, '', window.location.pathname);
    answer(api.POST('/v1/sessions', { body: { token } })).then(
      async () => {
        await queryClient.invalidateQueries();
        navigate('/documents');
      },
      () => setState('invalid'),
    );
  }, [token, queryClient]);

  const ask = async (event: FormEvent) => {
    event.preventDefault();
    setState('sending');
    await answer(api.POST('/v1/sign-in-links', { body: { email } })).catch(() => undefined);
    setState('sent');
  };

  if (state === 'redeeming') return <p role="status">{words.signingIn}</p>;
  return (
    <main className="sign-in">
      <h1>{words.signInTitle}</h1>
      {state === 'invalid' && <p role="alert">{words.linkInvalid}</p>}
      <p>{words.signInIntro}</p>
      <form onSubmit={(event) => void ask(event)}>
        <label htmlFor="email">{words.emailLabel}</label>
        <input
          id="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" disabled={state === 'sending'}>
          {state === 'sending' ? words.sending : words.sendLink}
        </button>
      </form>
      {state === 'sent' && <p role="status">{words.linkSent}</p>}
    </main>
  );
}
