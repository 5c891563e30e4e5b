import { packageConfig } from '@internal/vitest-config';

export default packageConfig();
