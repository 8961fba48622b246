import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';

import { LoginPage } from './auth/login-page.js';
import { NewOrganizationPage } from './auth/new-organization-page.js';
import { RegisterPage } from './auth/register-page.js';
import { returnPath } from './auth/return-path.js';
import { useSession } from './auth/session-context.js';
import { paths } from './shell/navigation.js';
import {
  HomeRedirect,
  NotFoundPage,
  RequireOrganizationType,
  SignedInLayout,
} from './shell/signed-in-layout.js';
import { Loading } from './ui/query-state.js';

/**
 * Pages load with their route, so a customer never downloads the provider's pages (and the charts
 * library comes only with a VM's page).
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const DevicePage = page(() => import('./auth/device-page.js'), 'DevicePage');
const FirewallPage = page(() => import('./customer/firewall/firewall-page.js'), 'FirewallPage');
const RulesetPage = page(() => import('./customer/firewall/ruleset-page.js'), 'RulesetPage');
const MarketplacePage = page(() => import('./customer/marketplace/marketplace-page.js'), 'MarketplacePage');
const OffersPage = page(() => import('./customer/marketplace/offers-page.js'), 'OffersPage');
const OrderPage = page(() => import('./customer/order/order-page.js'), 'OrderPage');
const SshKeysPage = page(() => import('./customer/ssh-keys/ssh-keys-page.js'), 'SshKeysPage');
const VmDetailPage = page(() => import('./customer/vms/vm-detail-page.js'), 'VmDetailPage');
const VmListPage = page(() => import('./customer/vms/vm-list-page.js'), 'VmListPage');
const AgentsPage = page(() => import('./provider/agents/agents-page.js'), 'AgentsPage');
const CloudInitTemplatePage = page(
  () => import('./provider/cloud-init/cloud-init-template-page.js'),
  'CloudInitTemplatePage',
);
const CloudInitTemplatesPage = page(
  () => import('./provider/cloud-init/cloud-init-templates-page.js'),
  'CloudInitTemplatesPage',
);
const IpamPage = page(() => import('./provider/ipam/ipam-page.js'), 'IpamPage');
const OnboardingPage = page(() => import('./provider/onboarding/onboarding-page.js'), 'OnboardingPage');
const PlansPage = page(() => import('./provider/plans/plans-page.js'), 'PlansPage');
const PlatformsNodesPage = page(
  () => import('./provider/platforms-nodes/platforms-nodes-page.js'),
  'PlatformsNodesPage',
);
const ProviderVmsPage = page(() => import('./provider/provider-vms/provider-vms-page.js'), 'ProviderVmsPage');
const RegionsPage = page(() => import('./provider/regions/regions-page.js'), 'RegionsPage');
const VmTemplatesPage = page(() => import('./provider/vm-templates/vm-templates-page.js'), 'VmTemplatesPage');

/**
 * Sign-in and registration are for visitors; a signed-in user goes where the sign-in was asked for, else
 * to their start page.
 */
function SignedOutOnly({ children }: { readonly children: ReactNode }) {
  const { session } = useSession();
  const location = useLocation();
  return session === undefined ? children : <Navigate to={returnPath(location.state)} replace />;
}

export function App() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route
          path={paths.login}
          element={
            <SignedOutOnly>
              <LoginPage />
            </SignedOutOnly>
          }
        />
        <Route
          path={paths.register}
          element={
            <SignedOutOnly>
              <RegisterPage />
            </SignedOutOnly>
          }
        />
        <Route element={<SignedInLayout />}>
          <Route index element={<HomeRedirect />} />
          <Route path={paths.newOrganization} element={<NewOrganizationPage />} />
          <Route path={paths.device} element={<DevicePage />} />
          <Route element={<RequireOrganizationType type="ORGANIZATION_TYPE_CLIENT" />}>
            <Route path={paths.marketplace} element={<MarketplacePage />} />
            <Route path="/marketplace/:planCode" element={<OffersPage />} />
            <Route path="/order/:planId" element={<OrderPage />} />
            <Route path={paths.vms} element={<VmListPage />} />
            <Route path="/vms/:vmId" element={<VmDetailPage />} />
            <Route path={paths.firewall} element={<FirewallPage />} />
            <Route path="/firewall/:rulesetId" element={<RulesetPage />} />
            <Route path={paths.sshKeys} element={<SshKeysPage />} />
          </Route>
          <Route element={<RequireOrganizationType type="ORGANIZATION_TYPE_PROVIDER" />}>
            <Route path={paths.onboarding} element={<OnboardingPage />} />
            <Route path={paths.regions} element={<RegionsPage />} />
            <Route path={paths.agents} element={<AgentsPage />} />
            <Route path={paths.platformsNodes} element={<PlatformsNodesPage />} />
            <Route path={paths.ipam} element={<IpamPage />} />
            <Route path={paths.cloudInitTemplates} element={<CloudInitTemplatesPage />} />
            <Route
              path="/infrastructure/cloud-init-templates/:templateId"
              element={<CloudInitTemplatePage />}
            />
            <Route path={paths.vmTemplates} element={<VmTemplatesPage />} />
            <Route path={paths.plans} element={<PlansPage />} />
            <Route path={paths.providerVms} element={<ProviderVmsPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
