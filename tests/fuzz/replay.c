/* Runs a libFuzzer target over files and folders of inputs, for builds without libFuzzer:
 * the corpus in the repository becomes a regression test. Exit code 0 when every input
 * ran (a failing input aborts). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return fprintf(stderr, "replay: cannot open %s\n", path), 0;
    unsigned char buf[1 << 16];
    size_t size = fread(buf, 1, sizeof buf, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, size);
    return 1;
}

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    long ran = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st)) return fprintf(stderr, "replay: no %s\n", argv[i]), 1;
        if (!S_ISDIR(st.st_mode)) {
            ran += run_file(argv[i]);
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        char path[4096];
        while (d && (e = readdir(d)))
            if (e->d_name[0] != '.') {
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                ran += run_file(path);
            }
        if (d) closedir(d);
    }
    printf("replay: %ld inputs ran\n", ran);
    return ran > 0 ? 0 : 1;
}
