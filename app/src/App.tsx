import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';

import { answer, api, chosenWorkspace, statusOf } from './api';
import {
  initialLanguage,
  LANGUAGES,
  localeOf,
  LocaleContext,
  rememberLanguage,
  useLocale,
  useScreenWords,
  type Language,
  type Words,
} from './i18n';
import { DocumentPage } from './pages/Document';
import { Documents } from './pages/Documents';
import { Inbox } from './pages/Inbox';
import { Keys } from './pages/Keys';
import { SignIn } from './pages/SignIn';
import { Send } from './send/Send';
import { WebhookPage } from './webhooks/Webhook';
import { Webhooks } from './webhooks/Webhooks';
import { Audit } from './workspace/Audit';
import { Companies } from './workspace/Companies';
import { GoingLive } from './workspace/GoingLive';
import { Members } from './workspace/Members';
import { Usage } from './workspace/Usage';
import { WORKSPACE_WORDS, type WorkspaceWords } from './workspace/words';
import { QueryState } from './query-state';
import { hrefOf, navigate, usePath } from './router';

/** Signed in or not (the account answers, or 401), then the screen the path names. */
export function App() {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const locale = useMemo(() => localeOf(language), [language]);
  const path = usePath();
  useEffect(() => {
    document.documentElement.lang = language;
    rememberLanguage(language);
  }, [language]);
  const account = useQuery({
    queryKey: ['account'],
    queryFn: () => answer(api.GET('/v1/account')),
    enabled: path !== '/sign-in',
  });

  let screen;
  if (path === '/sign-in' || statusOf(account.error) === 401) screen = <SignIn />;
  else if (account.isPending || account.error) screen = <QueryState query={account} />;
  else screen = <Shell email={account.data.email} path={path} />;

  return (
    <LocaleContext.Provider value={locale}>
      <div className="page">
        <LanguagePicker language={language} onChange={setLanguage} />
        {screen}
      </div>
    </LocaleContext.Provider>
  );
}

function LanguagePicker({ language, onChange }: { language: Language; onChange: (language: Language) => void }) {
  const { words } = useLocale();
  return (
    <label className="language">
      {words.language}{' '}
      <select value={language} onChange={(event) => onChange(event.target.value as Language)}>
        {Object.entries(LANGUAGES).map(([code, name]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The menu: each screen's path and the word that names it (the app's own, or the workspace screens'). */
const SCREENS: { path: string; name: (words: Words, workspace: WorkspaceWords) => string }[] = [
  { path: '/documents', name: (words) => words.documents },
  { path: '/send', name: (words) => words.send },
  { path: '/inbox', name: (words) => words.inbox },
  { path: '/companies', name: (_, workspace) => workspace.companies },
  { path: '/going-live', name: (_, workspace) => workspace.goingLive },
  { path: '/webhooks', name: (words) => words.webhooks },
  { path: '/keys', name: (words) => words.apiKeys },
  { path: '/members', name: (_, workspace) => workspace.members },
  { path: '/usage', name: (_, workspace) => workspace.usage },
  { path: '/audit', name: (_, workspace) => workspace.audit },
];

/** What a signed-in person sees around every screen: the workspace, the menu, signing out. */
function Shell({ email, path }: { email: string; path: string }) {
  const { words } = useLocale();
  const workspaceWords = useScreenWords(WORKSPACE_WORDS);
  const queryClient = useQueryClient();
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: () => answer(api.GET('/v1/workspaces')) });
  const [workspace, setWorkspace] = useState(chosenWorkspace.get());
  const current = workspace ?? workspaces.data?.data[0]?.id ?? null;

  const choose = (id: string) => {
    chosenWorkspace.set(id);
    setWorkspace(id);
    void queryClient.invalidateQueries({
      predicate: (query) => query.queryKey[0] !== 'workspaces' && query.queryKey[0] !== 'account',
    });
  };
  const signOut = async () => {
    await answer(api.DELETE('/v1/sessions/current')).catch(() => undefined);
    chosenWorkspace.clear();
    queryClient.clear();
    navigate('/sign-in');
  };

  return (
    <>
      <header className="bar">
        <a className="brand" href={hrefOf('/documents')}>
          {words.appName}
        </a>
        <nav aria-label={words.mainNavigation}>
          {SCREENS.map(({ path: target, name }) => (
            <a key={target} href={hrefOf(target)} aria-current={path.startsWith(target) ? 'page' : undefined}>
              {name(words, workspaceWords)}
            </a>
          ))}
        </nav>
        {workspaces.data && workspaces.data.data.length > 1 && (
          <label>
            {words.workspace}{' '}
            <select value={current ?? ''} onChange={(event) => choose(event.target.value)}>
              {workspaces.data.data.map((each) => (
                <option key={each.id} value={each.id}>
                  {each.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {workspaces.data && (
          <EnvironmentSwitch live={workspaces.data.data.find((each) => each.id === current)?.mode === 'live'} />
        )}
        <span className="who">{email}</span>
        <button type="button" onClick={() => void signOut()}>
          {words.signOut}
        </button>
      </header>
      <main>{current && <Screen path={path} workspaceId={current} />}</main>
    </>
  );
}

/**
 * Sandbox and live side by side: the environment this host serves, and the other one's app (each host signs in on
 * its own); live only once the workspace is verified.
 */
function EnvironmentSwitch({ live }: { live: boolean }) {
  const { words } = useLocale();
  const signedIn = useQuery({ queryKey: ['signed-in'], queryFn: () => answer(api.GET('/v1/sessions/current')) });
  if (!signedIn.data) return null;
  const { environment, apps } = signedIn.data;
  const choice = (target: 'sandbox' | 'live', name: string) =>
    target === environment ? (
      <a href={hrefOf('/documents')} aria-current="page">
        {name}
      </a>
    ) : (
      <a href={apps[target]}>{name}</a>
    );
  return (
    <nav aria-label={words.environment} className="environments">
      {choice('sandbox', words.sandboxKey)}
      {live || environment === 'live' ? (
        choice('live', words.liveKey)
      ) : (
        <span className="muted">{words.liveLocked}</span>
      )}
    </nav>
  );
}

/** The screen a path names (`/documents/{id}?company=…` a document, `/webhooks/{id}` a webhook), the documents when none does. */
function Screen({ path, workspaceId }: { path: string; workspaceId: string }) {
  const document = /^\/documents\/([^/]+)$/.exec(path);
  const company = new URLSearchParams(window.location.search).get('company');
  if (document && company) return <DocumentPage id={decodeURIComponent(document[1]!)} companyId={company} />;
  const webhook = /^\/webhooks\/([^/]+)$/.exec(path);
  if (webhook) return <WebhookPage id={decodeURIComponent(webhook[1]!)} />;
  switch (path) {
    case '/send':
      return <Send workspaceId={workspaceId} />;
    case '/inbox':
      return <Inbox workspaceId={workspaceId} />;
    case '/companies':
      return <Companies workspaceId={workspaceId} />;
    case '/going-live':
      return <GoingLive workspaceId={workspaceId} />;
    case '/webhooks':
      return <Webhooks />;
    case '/keys':
      return <Keys workspaceId={workspaceId} />;
    case '/members':
      return <Members workspaceId={workspaceId} />;
    case '/usage':
      return <Usage workspaceId={workspaceId} />;
    case '/audit':
      return <Audit workspaceId={workspaceId} />;
    default:
      return <Documents workspaceId={workspaceId} />;
  }
}
