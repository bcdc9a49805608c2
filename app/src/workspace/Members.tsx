import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

import { answer, api, type Schemas } from '../api';
import { useLocale, useScreenWords } from '../i18n';
import { QueryState } from '../query-state';
import { WORKSPACE_WORDS, type WorkspaceWords } from './words';

type Role = Schemas['WorkspaceMember']['role'];
const ROLES = ['member', 'admin', 'owner'] as const satisfies readonly Role[];

/** The workspace's members and their roles; one added by the email of their account, one removed (owners and admins may). */
export function Members({ workspaceId }: { workspaceId: string }) {
  const { words: shared } = useLocale();
  const words = useScreenWords(WORKSPACE_WORDS);
  const queryClient = useQueryClient();
  const path = { params: { path: { id: workspaceId } } };
  const members = useQuery({
    queryKey: ['members', workspaceId],
    queryFn: () => answer(api.GET('/v1/workspaces/{id}/members', path)),
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const changed = () => queryClient.invalidateQueries({ queryKey: ['members', workspaceId] });
  const invite = useMutation({
    mutationFn: () => answer(api.POST('/v1/workspaces/{id}/members', { ...path, body: { email, role } })),
    onSuccess: () => (setEmail(''), changed()),
  });
  const remove = useMutation({
    mutationFn: (accountId: string) =>
      answer(
        api.DELETE('/v1/workspaces/{id}/members/{accountId}', { params: { path: { id: workspaceId, accountId } } }),
      ),
    onSuccess: changed,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  const failure = invite.error ?? remove.error;
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">{words.members}</h1>
      <QueryState query={members} />
      {members.data && (
        <MemberTable
          members={members.data.data}
          onRemove={(accountId) => remove.mutate(accountId)}
          busy={remove.isPending}
          words={words}
        />
      )}
      <form className="answer" onSubmit={submit}>
        <p>{words.inviteIntro}</p>
        <label htmlFor="member-email">{words.email}</label>
        <input
          id="member-email"
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <label htmlFor="member-role">{words.role}</label>
        <select id="member-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
          {ROLES.map((each) => (
            <option key={each} value={each}>
              {words[`role_${each}`]}
            </option>
          ))}
        </select>
        <button type="submit" disabled={invite.isPending}>
          {words.invite}
        </button>
      </form>
      {failure && <p role="alert">{`${shared.failedToLoad} ${failure.message}`}</p>}
    </section>
  );
}

/** Each member by name and email, their role and since when; everyone but an owner with a button to remove them. */
function MemberTable({
  members,
  onRemove,
  busy,
  words,
}: {
  members: Schemas['WorkspaceMember'][];
  onRemove: (accountId: string) => void;
  busy: boolean;
  words: WorkspaceWords;
}) {
  const { date } = useLocale();
  return (
    <table className="documents">
      <thead>
        <tr>
          <th scope="col">{words.email}</th>
          <th scope="col">{words.role}</th>
          <th scope="col">{words.joined}</th>
          <th scope="col">
            <span className="visually-hidden">{words.remove}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {members.map((member) => (
          <tr key={member.account_id}>
            <td data-label={words.email}>{member.name ? `${member.name} <${member.email}>` : member.email}</td>
            <td data-label={words.role}>{words[`role_${member.role}`]}</td>
            <td data-label={words.joined}>{date(member.joined_at)}</td>
            <td>
              {member.role !== 'owner' && (
                <button
                  type="button"
                  className="secondary"
                  onClick={() => onRemove(member.account_id)}
                  disabled={busy}
                  aria-label={`${words.remove} ${member.email}`}
                >
                  {words.remove}
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
