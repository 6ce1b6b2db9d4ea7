import { authDatabase } from '@pawlink/auth';
import { imagesDatabase } from '@pawlink/images';
import type { DataSourceSpec } from '@pawlink/service-kit';
import { shortenerDatabase } from '@pawlink/shortener';

/** Every schema `bin/admin migrate` creates and migrates, in order. */
export const DATABASES: DataSourceSpec[] = [authDatabase, imagesDatabase, shortenerDatabase];
