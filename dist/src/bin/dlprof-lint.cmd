@echo off
rem dlprof-lint launcher for Windows (release archive): runs lib\dlprof-lint.jar with the Java runtime in
rem runtime\ when the archive has one, else %JAVA_HOME%\bin\java.exe, else java on PATH (Java 17 or newer).
rem C1-only JIT and SerialGC roughly halve the start-up of a short run; DLPROF_LINT_JAVA_OPTS replaces them.
setlocal
set "DLPROF_LINT_HOME=%~dp0.."
set "DLPROF_LINT_JAR=%DLPROF_LINT_HOME%\lib\dlprof-lint.jar"
if exist "%DLPROF_LINT_HOME%\runtime\bin\java.exe" (
  set "DLPROF_LINT_JAVACMD=%DLPROF_LINT_HOME%\runtime\bin\java.exe"
) else if defined JAVA_HOME (
  set "DLPROF_LINT_JAVACMD=%JAVA_HOME%\bin\java.exe"
) else (
  set "DLPROF_LINT_JAVACMD=java"
)
if "%DLPROF_LINT_JAVACMD%"=="java" (
  where java >nul 2>nul || (
    echo dlprof-lint: no Java runtime found: install Java 17 or newer ^(on PATH or in JAVA_HOME^) 1>&2
    exit /b 2
  )
)
if not exist "%DLPROF_LINT_JAR%" (
  echo dlprof-lint: %DLPROF_LINT_JAR% is missing: the installation is incomplete 1>&2
  exit /b 2
)
if not defined DLPROF_LINT_JAVA_OPTS set "DLPROF_LINT_JAVA_OPTS=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m -Xms64m"
"%DLPROF_LINT_JAVACMD%" %DLPROF_LINT_JAVA_OPTS% -jar "%DLPROF_LINT_JAR%" %*
exit /b %ERRORLEVEL%
