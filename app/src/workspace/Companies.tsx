import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

import { answer, api, type Schemas } from '../api';
import { Field } from '../field';
import { useScreenWords } from '../i18n';
import { QueryState } from '../query-state';
import { WORKSPACE_WORDS, type WorkspaceWords } from './words';

type Country = Schemas['CreateCompanyRequest']['country'];

/** The countries a company can be in; the compiler checks that none of the API's is missing. */
const COUNTRIES = [
  'AE',
  'AT',
  'AU',
  'BE',
  'DE',
  'DK',
  'FI',
  'FR',
  'GB',
  'GR',
  'IE',
  'IS',
  'IT',
  'JP',
  'MY',
  'NG',
  'NL',
  'NO',
  'NZ',
  'OM',
  'PL',
  'SE',
  'SG',
  'SK',
] as const satisfies readonly Country[];
const everyCountryListed: Exclude<Country, (typeof COUNTRIES)[number]> extends never ? true : never = true;
void everyCountryListed;

/** The workspace's companies, each with its details, its Peppol id (which can be changed) and where its receiving stands; a new one added. */
export function Companies({ workspaceId }: { workspaceId: string }) {
  const words = useScreenWords(WORKSPACE_WORDS);
  const companies = useQuery({ queryKey: ['companies', workspaceId], queryFn: () => answer(api.GET('/v1/companies')) });
  return (
    <section aria-labelledby="companies-title">
      <h1 id="companies-title">{words.companies}</h1>
      <p>{words.companiesIntro}</p>
      <QueryState query={companies} />
      {companies.data?.data.map((company) => (
        <CompanyCard key={company.id} id={company.id} words={words} />
      ))}
      <AddCompany workspaceId={workspaceId} words={words} />
    </section>
  );
}

function CompanyCard({ id, words }: { id: string; words: WorkspaceWords }) {
  const queryClient = useQueryClient();
  const company = useQuery({
    queryKey: ['company', id],
    queryFn: () => answer(api.GET('/v1/companies/{id}', { params: { path: { id } } })),
  });
  const [peppolId, setPeppolId] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      answer(
        api.PATCH('/v1/companies/{id}', { params: { path: { id } }, body: { peppol_id: peppolId?.trim() || null } }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(['company', id], saved);
      setPeppolId(null);
    },
  });
  if (!company.data) return <QueryState query={company} />;
  const stored = company.data;
  const address = [
    stored.address?.street,
    [stored.address?.postal_code, stored.address?.city].filter(Boolean).join(' '),
    stored.country,
  ]
    .filter(Boolean)
    .join(', ');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section className="card" aria-labelledby={`company-${id}`}>
      <h2 id={`company-${id}`}>{stored.name}</h2>
      <dl className="facts">
        <dt>{words.peppolId}</dt>
        <dd>{stored.peppol_id ?? '—'}</dd>
        <dt>{words.receiving}</dt>
        <dd>
          {words[`receiving_${stored.receiving?.status ?? 'none'}`]}
          {stored.receiving?.error_message && (
            <span className="field-problem">{` ${stored.receiving.error_message}`}</span>
          )}
        </dd>
        <dt>{words.verifiedLive}</dt>
        <dd>{stored.is_live ? words.verifiedLive : words.sandboxOnly}</dd>
        <dt>{words.taxId}</dt>
        <dd>{stored.tax_id ?? '—'}</dd>
        <dt>{words.registrationId}</dt>
        <dd>{stored.company_registration_id ?? '—'}</dd>
        <dt>{words.street}</dt>
        <dd>{address}</dd>
        <dt>{words.iban}</dt>
        <dd>{stored.iban ?? '—'}</dd>
      </dl>
      <form className="inline" onSubmit={submit}>
        <Field
          id={`peppol-${id}`}
          label={`${words.peppolId} (${stored.name})`}
          value={peppolId ?? stored.peppol_id ?? ''}
          onChange={setPeppolId}
          problem={save.error?.message}
        />
        <button type="submit" disabled={peppolId === null || save.isPending}>
          {words.save}
        </button>
        {save.isSuccess && <span role="status">{words.saved}</span>}
      </form>
    </section>
  );
}

const EMPTY = {
  name: '',
  tax_id: '',
  company_registration_id: '',
  peppol_id: '',
  email: '',
  iban: '',
  street: '',
  city: '',
  postal_code: '',
};

function AddCompany({ workspaceId, words }: { workspaceId: string; words: WorkspaceWords }) {
  const queryClient = useQueryClient();
  const [fields, setFields] = useState(EMPTY);
  const [country, setCountry] = useState<Country>('BE');
  const add = useMutation({
    mutationFn: () => {
      const { street, city, postal_code, name, ...rest } = fields;
      const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value.trim()));
      const address = Object.fromEntries(
        Object.entries({ street, city, postal_code }).filter(([, value]) => value.trim()),
      );
      return answer(
        api.POST('/v1/companies', {
          body: { name, country, ...given, ...(Object.keys(address).length > 0 && { address }) },
        }),
      );
    },
    onSuccess: async () => {
      setFields(EMPTY);
      await queryClient.invalidateQueries({ queryKey: ['companies', workspaceId] });
    },
  });
  const field = (key: keyof typeof EMPTY, label: string) => (
    <Field
      id={`new-${key}`}
      label={label}
      value={fields[key]}
      onChange={(value) => setFields({ ...fields, [key]: value })}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form className="send" onSubmit={submit}>
      <fieldset>
        <legend>{words.addCompany}</legend>
        {field('name', words.name)}
        <div className="field">
          <label htmlFor="new-country">{words.country}</label>
          <select id="new-country" value={country} onChange={(event) => setCountry(event.target.value as Country)}>
            {COUNTRIES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </div>
        {field('tax_id', words.taxId)}
        {field('company_registration_id', words.registrationId)}
        {field('peppol_id', words.peppolId)}
        {field('email', words.email)}
        {field('iban', words.iban)}
        {field('street', words.street)}
        {field('city', words.city)}
        {field('postal_code', words.postalCode)}
        <button type="submit" disabled={add.isPending || !fields.name.trim()}>
          {words.addCompany}
        </button>
      </fieldset>
      {add.error && <p role="alert">{add.error.message}</p>}
    </form>
  );
}
