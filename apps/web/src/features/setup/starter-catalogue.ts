/** The starter catalogue the setup page offers when payments are configured: the operator edits each price or leaves one out. */
import type { TFunction } from 'i18next';
import type { NewProduct } from './setup-api';

export type StarterItem = Omit<NewProduct, 'currency'> & { on: boolean };

export const starterCatalogue = (t: TFunction): StarterItem[] => [
  { id: 'premium-month', title: t('setup.catalogue.premiumMonth'), grant: 'premium:30d', price: '4.99', interval: 'month', on: true },
  { id: 'premium-year', title: t('setup.catalogue.premiumYear'), grant: 'premium:365d', price: '49.99', interval: 'year', on: true },
  { id: 'storage-100gb', title: t('setup.catalogue.storage'), grant: 'storage:100GB/30d', price: '1.99', interval: 'month', on: true },
  { id: 'transfer-50gb', title: t('setup.catalogue.transfer'), grant: 'transfer:50GB', price: '2.99', interval: '', on: true },
];
