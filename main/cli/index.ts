process.stdout.write('skillsmith\n');
