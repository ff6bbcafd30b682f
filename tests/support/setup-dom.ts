import 'reflect-metadata';
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// a loaded 2-core machine (CI runs every suite at once) can take more than the default second to
// render a lazily loaded dialog or page; the assertions stay the same, only the patience grows
configure({ asyncUtilTimeout: 5000 });
