import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { answer, api } from './api';
import { useLocale } from './i18n';

/** The workspace's companies and the one chosen (the first until another is): what every company screen starts from. */
export function useCompanies(workspaceId: string) {
  const companies = useQuery({ queryKey: ['companies', workspaceId], queryFn: () => answer(api.GET('/v1/companies')) });
  const [chosen, setChosen] = useState<string | null>(null);
  return { companies, companyId: chosen ?? companies.data?.data[0]?.id ?? null, choose: setChosen };
}

/** The company chosen among the workspace's; with `all`, an option of that name for every company (chosen as ''). */
export function CompanyPicker({
  companies,
  companyId,
  choose,
  all,
}: {
  companies: { data?: { data: { id: string; name: string }[] } };
  companyId: string | null;
  choose: (id: string) => void;
  all?: string;
}) {
  const { words } = useLocale();
  return (
    <label>
      {words.company}{' '}
      <select value={companyId ?? ''} onChange={(event) => choose(event.target.value)}>
        {all !== undefined && <option value="">{all}</option>}
        {companies.data?.data.map((company) => (
          <option key={company.id} value={company.id}>
            {company.name}
          </option>
        ))}
      </select>
    </label>
  );
}
