/* bcryptprimitives.dll for wine 8.0, which predates ProcessPrng: Rust's
 * standard library (1.78 and later) imports ProcessPrng from it to seed
 * its hash maps, and a Windows executable built by Rust does not start
 * without it. This stub answers with the system's random number generator
 * (advapi32's RtlGenRandom, which wine has). Only packaging/wine-test.sh
 * uses it, beside the executables it runs under wine; Windows itself has
 * the real one since Windows 10. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
