/** The top bar's project path: the project's own folder is the part that is never cut. */
import { describe, expect, it } from 'vitest';
import { splitProjectPath } from '../../renderer/src/components/project-path';

describe('splitProjectPath', () => {
  it('splits off the last folder, POSIX or Windows, a trailing separator kept with it', () => {
    expect(splitProjectPath('/home/al/projects/api-style')).toEqual({ head: '/home/al/projects/', tail: 'api-style' });
    expect(splitProjectPath('C:\\Users\\al\\work\\api')).toEqual({ head: 'C:\\Users\\al\\work\\', tail: 'api' });
    expect(splitProjectPath('/srv/site/')).toEqual({ head: '/srv/', tail: 'site/' });
    expect(splitProjectPath('/')).toEqual({ head: '', tail: '/' });
  });
});
