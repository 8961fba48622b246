import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf } from '../../api/api-error.js';
import type { CatalogueCountry, Datacenter, Region } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatDateTime } from '../../format/dates.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField } from '../../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../../ui/form-validation.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { providerKeys, useRegions } from '../provider-queries.js';

export function RegionsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const regions = useRegions();
  const remove = async (region: Region) => {
    await api.delete(apiPath`/v1/regions/${region.id}`);
    announce(`Region ${region.cityCountry.cityName} deleted.`);
    await queryClient.invalidateQueries({ queryKey: providerKeys.regions });
  };
  return (
    <Page
      title="Regions"
      description="Where you sell: a city customers search for and the datacenter your nodes are in."
    >
      <Section title="Your regions" id="regions">
        <QueryState query={regions} loadingLabel="Loading regions…">
          {(data) =>
            data.length === 0 ? (
              <EmptyState>
                <p>No regions yet. Create one below.</p>
              </EmptyState>
            ) : (
              <TableScroll label="Regions">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">City</th>
                      <th scope="col">Country</th>
                      <th scope="col">Datacenter</th>
                      <th scope="col">Created</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.map((r) => (
                      <tr key={r.id}>
                        <th scope="row">{r.cityCountry.cityName}</th>
                        <td>{r.cityCountry.countryName}</td>
                        <td>{r.datacenter.name}</td>
                        <td>{formatDateTime(r.createTime)}</td>
                        <td>
                          <ConfirmButton
                            className="button-danger button-small"
                            label={`Delete region ${r.cityCountry.cityName}, ${r.datacenter.name}`}
                            title={`Delete region ${r.cityCountry.cityName}?`}
                            body={<p>Regions that nodes or plans use cannot be deleted.</p>}
                            confirmLabel="Delete region"
                            onConfirm={() => remove(r)}
                          >
                            Delete
                          </ConfirmButton>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </QueryState>
      </Section>
      <CreateRegionForm />
    </Page>
  );
}

function CreateRegionForm() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const [values, setValues] = useState({ country: '', cityCountryId: '', datacenterId: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const catalogue = useQuery({
    queryKey: ['countries-cities'],
    queryFn: () => api.get<{ countries: CatalogueCountry[] }>('/v1/countries-cities'),
    staleTime: Infinity,
  });
  const datacenters = useQuery({
    queryKey: ['datacenters'],
    queryFn: () => api.get<{ datacenters: Datacenter[] }>('/v1/datacenters'),
    staleTime: Infinity,
  });
  const countries = catalogue.data?.countries ?? [];
  const cities = countries.find((c) => c.name === values.country)?.cities ?? [];
  // A datacenter without a city (your own facility) fits every city.
  const centres = (datacenters.data?.datacenters ?? []).filter(
    (d) => d.cityId === values.cityCountryId || d.cityId === '',
  );

  const create = useMutation({
    mutationFn: (body: { cityCountryId: string; datacenterId: string }) =>
      api.post<Region>('/v1/regions', body),
    onSuccess: async (region) => {
      announce(`Region ${region.cityCountry.cityName} created.`);
      setValues({ country: '', cityCountryId: '', datacenterId: '' });
      await queryClient.invalidateQueries({ queryKey: providerKeys.regions });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (values.cityCountryId === '') found.cityCountryId = 'Choose a city.';
    if (values.datacenterId === '') found.datacenterId = 'Choose a datacenter.';
    setErrors(found);
    if (!hasErrors(found))
      create.mutate({ cityCountryId: values.cityCountryId, datacenterId: values.datacenterId });
  };
  const apiErrors = fieldErrorsOf(create.error);
  return (
    <Section title="Create a region" id="create-region">
      <form onSubmit={submit} noValidate aria-label="Create region" className="form-narrow">
        <FormError
          error={create.error ?? catalogue.error ?? datacenters.error}
          fields={['cityCountryId', 'datacenterId']}
        />
        <SelectField
          label="Country"
          value={values.country}
          placeholder="Choose a country"
          options={countries.map((c) => ({ value: c.name, label: c.name }))}
          onChange={(e) => {
            setValues({ country: e.target.value, cityCountryId: '', datacenterId: '' });
          }}
        />
        <SelectField
          label="City"
          value={values.cityCountryId}
          placeholder={values.country === '' ? 'Choose a country first' : 'Choose a city'}
          options={cities.map((c) => ({ value: c.id, label: c.name }))}
          onChange={(e) => {
            setValues({ ...values, cityCountryId: e.target.value, datacenterId: '' });
          }}
          error={errors.cityCountryId ?? apiErrors.cityCountryId}
        />
        <SelectField
          label="Datacenter"
          value={values.datacenterId}
          placeholder={values.cityCountryId === '' ? 'Choose a city first' : 'Choose a datacenter'}
          options={centres.map((d) => ({ value: d.id, label: d.name }))}
          onChange={(e) => {
            setValues({ ...values, datacenterId: e.target.value });
          }}
          error={errors.datacenterId ?? apiErrors.datacenterId}
        />
        <button type="submit" disabled={create.isPending}>
          Create region
        </button>
      </form>
    </Section>
  );
}
